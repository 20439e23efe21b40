"""A façade's method that hands the call to one of its task modules (composition).

``TournamentService`` (``facade.py``) and ``ranking.classic.service.ClassicService`` are
façades: each holds its task modules in ``modules`` (one object per task, all on one
``ServiceContext``) and declares every public method as a ``Delegate`` naming the module,
so the front ends and ``mypy --strict`` see the module's signature and docstring.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, Self, TypeVar, cast, overload

M = TypeVar("M")
P = ParamSpec("P")
R = TypeVar("R")


class HasModules(Protocol):
    """A façade: its task modules are attributes of ``modules``."""

    @property
    def modules(self) -> Any: ...


class Delegate(Generic[M, P, R]):
    """A method of a façade that hands the call to the task module named ``module``."""

    def __init__(self, module: str, method: Callable[Concatenate[M, P], R]) -> None:
        self.module = module
        self.method = method
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, service: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, service: HasModules, owner: type[Any]) -> Callable[P, R]: ...

    def __get__(self, service: HasModules | None, owner: type[Any]) -> Self | Callable[P, R]:
        if service is None:
            return self
        return cast(Callable[P, R], types.MethodType(self.method, getattr(service.modules, self.module)))

    def __call__(self, service: HasModules, /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Called on the class (``TournamentService.enter_slip(service, …)``), as a method is."""
        return self.method(getattr(service.modules, self.module), *args, **kwargs)
