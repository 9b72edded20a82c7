"""The Monopoly ring (кольцо монополии) around the cross: its squares, its Chance and Chest
decks, its state. The rules that use them are `homunculus.rules.ring_*` and `rules.debts`."""
