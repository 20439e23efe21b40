"""A façade's method that hands the call to one of its task modules (composition).

``TournamentService`` (``facade.py``) and ``ranking.classic.service.ClassicService`` are
façades: each holds its task modules in ``modules`` (one object per task, all on one
``ServiceContext``) and declares every public method as a ``Delegate`` naming the module,
so the front ends and ``mypy --strict`` see the module's signature and docstring.

A façade may also name its task classes without importing them (``TaskClass``: a
read-only command loads only the modules it calls, issue 38): the ``Delegate`` then holds
a ``MethodName`` and finds the method on the module object when called, and its docstring
when first asked.
"""

from __future__ import annotations

import importlib
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


class TaskClass:
    """A task module's class named without importing its module (``module``: its dotted
    name; ``name``: the class's): ``TaskClass(…).method_name`` is a ``MethodName`` for a
    ``Delegate``, and ``load()`` imports the module and returns the class."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def load(self) -> type[Any]:
        """The class itself (imports its module)."""
        return cast(type[Any], getattr(importlib.import_module(self.module), self.name))

    def __getattr__(self, method: str) -> MethodName:
        if method.startswith("__"):
            raise AttributeError(method)
        return MethodName(self, method)


class MethodName:
    """A method of a ``TaskClass``, by name (its module not imported until asked)."""

    def __init__(self, owner: TaskClass, name: str) -> None:
        self.owner = owner
        self.__name__ = name

    def load(self) -> Callable[..., Any]:
        """The method itself (imports its module)."""
        return cast(Callable[..., Any], getattr(self.owner.load(), self.__name__))


class _MethodDoc:
    """``Delegate.__doc__``: on the class, its own docstring; on a delegate, its task
    method's (a ``MethodName``'s module imported when first asked)."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def __get__(self, delegate: Delegate[Any, Any, Any] | None, owner: type[Any]) -> str | None:
        if delegate is None:
            return self.text
        method: Any = delegate.method
        return (method.load() if isinstance(method, MethodName) else method).__doc__


class Delegate(Generic[M, P, R]):
    """A method of a façade that hands the call to the task module named ``module``;
    ``method`` the task class's method, or its ``MethodName`` (module docstring)."""

    __doc__ = _MethodDoc(__doc__)

    def __init__(self, module: str, method: Callable[Concatenate[M, P], R]) -> None:
        self.module = module
        self.method = method
        self.name = method.__name__

    @overload
    def __get__(self, service: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, service: HasModules, owner: type[Any]) -> Callable[P, R]: ...

    def __get__(self, service: HasModules | None, owner: type[Any]) -> Self | Callable[P, R]:
        if service is None:
            return self
        if isinstance(self.method, MethodName):
            return cast(Callable[P, R], getattr(getattr(service.modules, self.module), self.name))
        return cast(Callable[P, R], types.MethodType(self.method, getattr(service.modules, self.module)))

    def __call__(self, service: HasModules, /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Called on the class (``TournamentService.enter_slip(service, …)``), as a method is."""
        if isinstance(self.method, MethodName):
            return cast(R, getattr(getattr(service.modules, self.module), self.name)(*args, **kwargs))
        return self.method(getattr(service.modules, self.module), *args, **kwargs)
