"""Deep copies of state structs that share what cannot change.

`decide` works on a copy of the state (`tablehall_rules.flow.clone`). A msgpack round trip copies
exactly, but it rebuilds every piece, card and tile: most of the cost of a big state is objects
nothing will ever change. A copier here is planned once per struct type from its field types
(`msgspec.inspect`): immutable values (numbers, strings, enums, frozen structs of immutable fields,
tuples and frozensets of them: a field typed so is trusted to hold one) are shared, containers of
them copied shallowly, mutable structs copied field by field, and a field it cannot plan (`Any`, a
union of several containers) is copied by `copy.deepcopy`. The copy shares no mutable object with its original
(tests/rules/test_structcopy.py walks both to check).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable
from typing import Any, TypeVar, get_origin

import msgspec
import msgspec.inspect as mi

T = TypeVar("T")
Copier = Callable[[Any], Any]

# types whose values never change once made
_ATOMS = (
    mi.IntType,
    mi.FloatType,
    mi.StrType,
    mi.BoolType,
    mi.NoneType,
    mi.BytesType,
    mi.LiteralType,
    mi.EnumType,
    mi.DateTimeType,
    mi.DateType,
    mi.TimeType,
    mi.TimeDeltaType,
    mi.UUIDType,
    mi.DecimalType,
)

_copiers: dict[type[Any], Copier] = {}
# the plans of non-generic struct types (None: shared), for every planner
_plans: dict[type[Any], Copier | None] = {}


def copier(kind: type[T]) -> Callable[[T], T]:
    """The deep copy of values of type `kind`, a struct's above all (planned on first use)."""
    known = _copiers.get(kind)
    if known is None:
        known = _Planner().plan(mi.type_info(kind)) or _share
        _copiers[kind] = known
    return known


def _share(value: Any) -> Any:
    return value


def _deep(value: Any) -> Any:
    return copy.deepcopy(value)


_ATOM_CLASSES = (int, float, str, bytes, bool, type(None), enum.Enum)


def _atom_or_deep(value: Any) -> Any:
    return value if isinstance(value, _ATOM_CLASSES) else copy.deepcopy(value)


class _Planner:
    def __init__(self) -> None:
        # struct types being planned: a self-referencing type copies through a late-bound copier
        self._planning: dict[type[Any], list[Copier | None]] = {}

    def plan(self, t: mi.Type) -> Copier | None:
        """How to copy a value of type `t`; None: share it (it cannot change)."""
        if isinstance(t, _ATOMS):
            return None
        if isinstance(t, mi.StructType):
            return self.struct(t.cls, t)
        if isinstance(t, mi.ListType):
            item = self.plan(t.item_type)
            if item is None:
                return list
            each: Copier = item
            return lambda v: [each(x) for x in v]
        if isinstance(t, mi.SetType):
            return set if self.plan(t.item_type) is None else _deep
        if isinstance(t, mi.FrozenSetType):
            return None if self.plan(t.item_type) is None else _deep
        if isinstance(t, mi.VarTupleType):
            item = self.plan(t.item_type)
            if item is None:
                return None
            return lambda v: tuple(item(x) for x in v)
        if isinstance(t, mi.TupleType):
            items = [self.plan(i) for i in t.item_types]
            if all(i is None for i in items):
                return None
            plans = [i or _share for i in items]
            return lambda v: tuple(p(x) for p, x in zip(plans, v, strict=True))
        if isinstance(t, mi.DictType):
            value = self.plan(t.value_type)
            if self.plan(t.key_type) is not None:
                return _deep
            if value is None:
                return dict
            return lambda v: {k: value(x) for k, x in v.items()}
        if isinstance(t, mi.UnionType):
            return self.union(t)
        return _deep

    def union(self, t: mi.UnionType) -> Copier | None:
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        plans = [self.plan(m) for m in members]
        if all(p is None for p in plans):
            return None
        if all(isinstance(m, (*_ATOMS, mi.StructType)) for m in members):
            # structs told apart by their class at run time; atoms shared; anything else copied whole
            by_class: dict[type[Any], Copier] = {
                get_origin(m.cls) or m.cls: p or _share
                for m, p in zip(members, plans, strict=True)
                if isinstance(m, mi.StructType)
            }
            return lambda v: by_class.get(type(v), _atom_or_deep)(v)
        return _deep

    def struct(self, cls: type[Any], info: mi.StructType) -> Copier | None:
        # a generic struct's plan depends on its arguments (Deck[Card], Deck[Tile]): never kept
        base = get_origin(cls) or cls
        generic = base is not cls or bool(getattr(base, "__parameters__", ()))
        if not generic and cls in _plans:
            return _plans[cls]
        late = self._planning.get(cls)
        if late is not None:  # a type that contains itself: copy through the plan being made
            return lambda v: (late[0] or _share)(v)
        slot: list[Copier | None] = [None]
        self._planning[cls] = slot
        fields = [(f.name, self.plan(f.type)) for f in info.fields]
        mutable = [(name, plan) for name, plan in fields if plan is not None]
        frozen = bool(base.__struct_config__.frozen)
        result = None if frozen and not mutable else _struct_copier(frozen, mutable)
        slot[0] = result
        del self._planning[cls]
        if not generic:
            _plans[cls] = result
        return result


def _struct_copier(frozen: bool, fields: list[tuple[str, Copier]]) -> Copier:
    """A shallow copy with `fields` copied by their plans, as straight-line code (a loop over the
    fields costs a third of a small struct's copy)."""
    # a frozen struct's fields are set past its guard: the copy is new, nobody holds it yet
    put = "force_setattr(new, {name!r}, plan_{i}(v.{name}))" if frozen else "new.{name} = plan_{i}(v.{name})"
    lines = ["def copy_struct(v):", "    new = shallow(v)"]
    lines += ["    " + put.format(name=name, i=i) for i, (name, _) in enumerate(fields)]
    lines.append("    return new")
    scope: dict[str, Any] = {"shallow": copy.copy, "force_setattr": msgspec.structs.force_setattr}
    scope.update({f"plan_{i}": plan for i, (_, plan) in enumerate(fields)})
    exec("\n".join(lines), scope)  # the source is made here from field names only
    made: Copier = scope["copy_struct"]
    return made
