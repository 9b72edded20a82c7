"""The audit of finished tables: verification, replay, export files."""
