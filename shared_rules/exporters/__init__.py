"""Exporters that write an event as files for other programs (CSV); a game's own formats live with the game
(TOM ``.tdf``: ``shared_rules.games.pokemon.tom``; the Star Trek tournament report: ``shared_rules.games.startrek.report``)."""
