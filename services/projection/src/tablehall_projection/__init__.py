"""The projection service: read models built from the event stream, live
redacted views, journals, standings and the audit of finished tables."""
