"""Client channels between the services.

An address is one `host:port` or any gRPC target naming several instances,
e.g. `ipv4:127.0.0.1:50052,127.0.0.1:50062`: calls are spread round robin over
the instances that answer, and one that stops (a drain, a crash) is left out
until it answers again, so its callers' retries land on the others.
"""

from __future__ import annotations

import grpc

ROUND_ROBIN = (("grpc.lb_policy_name", "round_robin"),)


def insecure_channel(address: str) -> grpc.aio.Channel:
    return grpc.aio.insecure_channel(address, options=ROUND_ROBIN)
