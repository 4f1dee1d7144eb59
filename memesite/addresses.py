"""Who sent a request: the one answer for the whole site (sign-in lock-outs,
limits kept per address).

The connecting peer is the client, unless it is one of TRUSTED_PROXIES. Then
X-Forwarded-For is read from the right, since each proxy appends the address it
received the request from, and the first address that is not a trusted proxy
is the client. Whatever stands left of it was written by the client and is
never believed; a peer that is not trusted gets no say at all.

(django-ipware, which django-axes offers, matches trusted proxies against the
addresses inside the header, never against the peer that connected: a client
reaching the server directly could still name any address.)

An IPv6 client is known by its /64 network, written as the network's first
address: a home, a phone or a rented server is given a whole /64 and may send
from any of its 2^64 addresses, so counting each apart would give one client
endless fresh addresses for every per-address limit.

A request from a trusted proxy that names no client at all is a proxy set up
without X-Forwarded-For: every visitor would then share the proxy's address,
and one visitor's failed sign-ins would lock out everyone.
``forwarded_for_missing`` says so, and memesite.middleware refuses such a
request rather than count it under the proxy's address.
"""

from __future__ import annotations

import functools
import ipaddress

from django.conf import settings
from django.http import HttpRequest

# A TRUSTED_PROXIES entry for a proxy on this machine that connects over a Unix
# socket: the server then reports no peer address at all.
UNIX_SOCKET = "unix"

# The IPv6 network one subscriber is given (RFC 6177): every per-address limit
# counts it as one client.
CLIENT_PREFIX_LENGTH = 64

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_address(request: HttpRequest) -> str:
    """The client's address as text, an IPv6 client's /64 as its first address
    ("" only from an untrusted Unix-socket peer)."""
    address = canonical(request.META.get("REMOTE_ADDR") or "")
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    while hops and is_trusted_proxy(address):
        hop = canonical(hops.pop().strip())
        if parsed(hop) is None:
            break  # garbled: the last address a trusted proxy vouched for stands
        address = hop
    return one_client(address)


def forwarded_for_missing(request: HttpRequest) -> bool:
    """Whether a trusted proxy sent the request without naming its client."""
    peer = canonical(request.META.get("REMOTE_ADDR") or "")
    return is_trusted_proxy(peer) and not request.META.get("HTTP_X_FORWARDED_FOR", "").strip()


def is_trusted_proxy(address: str) -> bool:
    networks, unix_socket = trusted_proxies(tuple(settings.TRUSTED_PROXIES))
    if not address:
        return unix_socket
    ip = parsed(address)
    return ip is not None and any(ip in network for network in networks)


@functools.cache
def trusted_proxies(entries: tuple[str, ...]) -> tuple[tuple[Network, ...], bool]:
    """TRUSTED_PROXIES as networks (settings.py has checked each entry), and
    whether a Unix-socket peer is one of them."""
    networks = tuple(ipaddress.ip_network(entry, strict=False) for entry in entries if entry != UNIX_SOCKET)
    return networks, UNIX_SOCKET in entries


def parsed(text: str) -> Address | None:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    # A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def one_client(address: str) -> str:
    """An IPv6 address as its /64 network's first address; others as they are."""
    ip = parsed(address)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, CLIENT_PREFIX_LENGTH), strict=False).network_address)
    return address


def canonical(text: str) -> str:
    """One spelling per address, so one client is one key wherever it is counted."""
    ip = parsed(text)
    return str(ip) if ip is not None else text
