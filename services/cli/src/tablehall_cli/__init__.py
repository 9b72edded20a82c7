"""The `tablehall` command."""

import os

# Before grpc is imported: its fork handlers are for processes that go on using gRPC
# after a fork. Ours only fork to exec (pg_ctl, nats-server); with them on, gRPC logs
# "Other threads are currently calling into gRPC, skipping fork() handlers" on every stop.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
