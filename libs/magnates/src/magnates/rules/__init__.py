"""The rules of Магнаты, one module per topic."""
