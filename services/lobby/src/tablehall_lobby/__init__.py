"""The lobby service: where a table is born and its people are managed."""
