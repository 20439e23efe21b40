"""This machine's network addresses, for ``duplicada serve``'s start-up lines (issue 35 §4).

A server listening on every interface (``--host 0.0.0.0``, or ``::`` for IPv6 too) is
reached at the addresses of this machine's interfaces, never at ``0.0.0.0``: the judge
reads one of them to the assistants. Standard library only, from three sources joined:

* on Linux, each interface's IPv4 address (the ``SIOCGIFADDR`` request) and its IPv6
  addresses (``/proc/net/if_inet6``);
* the addresses this machine's name resolves to (every interface's on Windows, and on
  Linux with ``nss-myhostname``);
* the source address of the default route, IPv4 and IPv6 (a UDP socket connected to a
  documentation address: nothing is sent).

Loopback, link-local and unspecified addresses are left out: no other machine reaches them.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from pathlib import Path

WILDCARDS = {"0.0.0.0": socket.AF_INET, "": socket.AF_INET, "::": socket.AF_INET6}
"""``--host`` values that listen on every interface, and the family each covers
(``::`` takes IPv4 too on most systems: both families are listed)."""

_ROUTE_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))
"""Documentation addresses (RFC 5737, RFC 3849) a UDP socket is pointed at to learn the
default route's source address; no packet leaves."""


def _reachable(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an address another machine may reach, else None."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
        return None
    return address


def _linux_addresses() -> list[str]:
    found: list[str] = []
    if sys.platform != "linux":
        return found
    import fcntl

    siocgifaddr = 0x8915
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _index, name in socket.if_nameindex():
                try:
                    answer = fcntl.ioctl(probe.fileno(), siocgifaddr, struct.pack("256s", name.encode()[:15]))
                except OSError:                  # an interface without an IPv4 address
                    continue
                found.append(socket.inet_ntoa(answer[20:24]))
    except OSError:
        pass
    try:
        lines = Path("/proc/net/if_inet6").read_text(encoding="ascii").splitlines()
    except OSError:
        lines = []
    for line in lines:
        digits = line.split()[0] if line.split() else ""
        if len(digits) == 32:
            found.append(str(ipaddress.IPv6Address(bytes.fromhex(digits))))
    return found


def _resolved_addresses() -> list[str]:
    try:
        answers = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    return [str(answer[4][0]) for answer in answers]


def _route_addresses() -> list[str]:
    found: list[str] = []
    for family, target in _ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                found.append(str(probe.getsockname()[0]))
        except OSError:                          # no route in that family
            continue
    return found


def machine_addresses(family: socket.AddressFamily | None = None) -> list[str]:
    """This machine's addresses other machines may reach (of ``family`` if given, else
    both), IPv4 first, each once, in order; possibly empty (no network)."""
    kept: dict[ipaddress.IPv4Address | ipaddress.IPv6Address, None] = {}
    for text in _linux_addresses() + _resolved_addresses() + _route_addresses():
        address = _reachable(text)
        if address is None:
            continue
        if family == socket.AF_INET and address.version != 4 or family == socket.AF_INET6 and address.version != 6:
            continue
        kept[address] = None
    return [str(address) for address in sorted(kept, key=lambda address: (address.version, address))]


def url_host(address: str) -> str:
    """``address`` as a URL writes it (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def browser_urls(host: str, port: int, scheme: str) -> list[str]:
    """The addresses browsers open for a server listening on ``host``:``port``: the
    machine's addresses when ``host`` is every interface (``0.0.0.0``, ``::``), else
    ``host`` itself; the machine's name when no address is found."""
    if host in WILDCARDS:
        hosts = machine_addresses(None if host == "::" else WILDCARDS[host]) or [socket.gethostname()]
    else:
        hosts = [host]
    default = {"http": 80, "https": 443}.get(scheme)
    suffix = "" if port == default else f":{port}"
    return [f"{scheme}://{url_host(name)}{suffix}/" for name in hosts]
