"""Per-game scoring helpers: pure functions that turn one game's report into numbers."""
