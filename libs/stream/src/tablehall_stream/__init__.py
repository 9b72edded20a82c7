"""The seam between games and the platform (see the modules):

- `names`: stream and event type names;
- `events`: the platform's own events (`match.Started`, `match.Ended`);
- `codecs`: each game's event and command codecs;
- `proto_games`: commands, legal moves and decisions <-> the match API's protos.

Which open decisions a viewer may know of is `tablehall_rules.disclosure`.
"""
