"""Game-specific simulation runners (games whose play is not a plain turn loop)."""
