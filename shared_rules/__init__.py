"""Topcut rules engine: standard library only, deterministic, shared by server and tablets."""
