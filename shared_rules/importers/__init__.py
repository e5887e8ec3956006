"""Importers that turn other programs' files into what an event needs (a CSV roster); a game's own formats live
with the game (TOM ``.tdf``: ``shared_rules.games.pokemon.tom``)."""
