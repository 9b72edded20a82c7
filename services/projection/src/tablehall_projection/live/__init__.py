"""Live views: per-table feeds fanned out to every watcher, resumable by version."""
