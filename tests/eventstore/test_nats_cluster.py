"""The NATS cluster of deploy/k8s, run here: three nats-servers on 127.0.0.1 from
deploy/k8s/nats/nats.conf (only addresses, store and names changed), the
publisher creating the events stream with three replicas, and every event still
read after the stream's leader is killed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nats
import pytest
from support.deploykit import K8S
from support.publishkit import publish_until

from tablehall_eventstore import EventStore, NewEvent, Publisher
from tablehall_eventstore.publisher import NatsNames
from tablehall_platform.embedded import free_port, nats_binary

NODES = 3


def local_config(conf: str, client: int, http: int, route: int, routes: list[int], store: Path, pid: Path) -> str:
    """The Kubernetes configuration with this machine's ports and folders."""
    swaps = [
        (r"listen: 0\.0\.0\.0:4222", f"listen: 127.0.0.1:{client}"),
        (r"http: 0\.0\.0\.0:8222", f"http: 127.0.0.1:{http}"),
        (r"listen: 0\.0\.0\.0:6222", f"listen: 127.0.0.1:{route}"),
        (r"store_dir: /data/jetstream", f"store_dir: {store}"),
        (r"pid_file: /var/run/nats/nats.pid", f"pid_file: {pid}"),
        (r"routes: \[[^\]]*\]", "routes: [" + ", ".join(f"nats://127.0.0.1:{p}" for p in routes) + "]"),
    ]
    for pattern, value in swaps:
        conf, count = re.subn(pattern, value, conf)
        assert count == 1, pattern
    return conf


@dataclass
class Node:
    name: str
    url: str
    process: subprocess.Popen[bytes]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[Node]]:
    conf = (K8S / "nats" / "nats.conf").read_text()
    ports = [(free_port(), free_port(), free_port()) for _ in range(NODES)]
    routes = [route for _, _, route in ports]
    nodes: list[Node] = []
    try:
        for i, (client, http, route) in enumerate(ports):
            path = tmp_path / f"n{i}.conf"
            path.write_text(
                local_config(conf, client, http, route, routes, tmp_path / f"js{i}", tmp_path / f"n{i}.pid")
            )
            process = subprocess.Popen(
                [nats_binary(), "-c", str(path)],
                env={**os.environ, "SERVER_NAME": f"n{i}"},
                stdout=subprocess.DEVNULL,
                stderr=(tmp_path / f"n{i}.log").open("wb"),
            )
            nodes.append(Node(f"n{i}", f"nats://127.0.0.1:{client}", process))
        for node, (_, http, _) in zip(nodes, ports, strict=True):
            wait_healthy(node, http, tmp_path / f"{node.name}.log")
        yield nodes
    finally:
        for node in nodes:
            if node.process.poll() is None:
                node.process.kill()
            node.process.wait()


def wait_healthy(node: Node, http: int, log: Path) -> None:
    """Until the server is healthy with JetStream current in the cluster (the startup probe of deploy/k8s/nats.yaml)."""
    url = f"http://127.0.0.1:{http}/healthz"
    for _ in range(600):
        assert node.process.poll() is None, log.read_text()
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as answer:
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"{node.name} never became healthy: {log.read_text()[-2000:]}")


async def _stream_info(url: str, stream: str, ready: Callable[[Any], bool]) -> Any:
    """The stream's info once `ready(info)` (a leader is elected some time after a change)."""
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        for _ in range(600):
            with contextlib.suppress(Exception):
                info = await js.stream_info(stream)
                if info.cluster is not None and info.cluster.leader and ready(info):
                    return info
            await asyncio.sleep(0.1)
        raise AssertionError(f"the stream {stream} never became ready")
    finally:
        await nc.close()


async def _read_all(url: str, names: NatsNames, count: int) -> list[str]:
    """The message ids of the stream's first `count` messages, read one by one from its
    leader (no consumer to create, so no need of the cluster's meta leader)."""
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        got: list[str] = []
        for seq in range(1, count + 1):
            msg = await js.get_msg(names.stream, seq)
            assert msg.headers is not None
            got.append(msg.headers["Nats-Msg-Id"])
        info = await js.stream_info(names.stream)
        assert info.state.messages == count  # and nothing more
        return got
    finally:
        await nc.close()


async def test_the_events_stream_has_three_replicas_and_survives_a_killed_server(
    cluster: list[Node], fresh_store: Callable[[], Awaitable[EventStore]]
) -> None:
    store = await fresh_store()
    for k in range(20):
        await store.append(f"cl.t{k % 4}", k // 4, [NewEvent("E", 1, b"{}", {})])
    names = NatsNames(f"cl{uuid.uuid4().hex[:8]}")
    publisher = Publisher(store, cluster[0].url, names=names, replicas=NODES)
    assert await publish_until(publisher, 20) == 20
    await publisher.close()

    info = await _stream_info(cluster[1].url, names.stream, lambda i: len(i.cluster.replicas or []) == NODES - 1)
    assert info.config.num_replicas == NODES
    assert info.state.messages == 20

    # kill the stream's leader: the other two still hold every acknowledged event
    (leader,) = [node for node in cluster if node.name == info.cluster.leader]
    leader.process.kill()
    leader.process.wait()
    survivor = next(node for node in cluster if node is not leader)
    await _stream_info(survivor.url, names.stream, lambda i: i.cluster.leader != leader.name)
    events = await store.read_all(0)
    assert await _read_all(survivor.url, names, len(events)) == [str(e.event_id) for e in events]
