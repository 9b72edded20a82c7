"""One module per topic of the rules; each exposes the handlers of its commands."""
