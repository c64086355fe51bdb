"""Frozen records written out, for the classes a start makes before its first
frame: a `@dataclass(frozen=True)` generates and compiles its methods at every
start (about 0.3 ms a class), where these are compiled once into the .pyc.

- `Frozen`: assigning or deleting a field raises FrozenInstanceError, as a
  frozen dataclass's would; an `__init__` sets its fields with `set_field`.
  Compared and hashed by identity (the key map, a subscription).
- `Record`: a Frozen compared, hashed and shown by its fields, the names in
  its `__match_args__`, and by its exact type (a Play never equals a Fill
  with the same values), as `@dataclass(frozen=True, slots=True)` makes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from operator import attrgetter
from typing import Any, ClassVar

set_field = object.__setattr__


class Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class Record(Frozen):
    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]  # the fields' values, in order

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__match_args__
        # attrgetter of one name gives the value, not a 1-tuple: always a tuple
        cls._values = attrgetter(*names) if len(names) > 1 else lambda r: (getattr(r, names[0]),)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            values = type(self)._values  # (a class's function: not bound to self)
            return bool(values(self) == values(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(type(self)._values(self))

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{n}={v!r}" for n, v in zip(self.__match_args__, type(self)._values(self), strict=True)
        )
        return f"{type(self).__name__}({fields})"
