"""`record`: the small immutable (or plain) value classes the pipeline is made of.

Why not `dataclasses`? Start-up. A command such as `hazard-dsl analyse cotton` should answer in
about the time Python takes to import NumPy, and every command defines some fifty value classes
before it does any work. Under Python 3.11, importing `dataclasses` costs about 17 ms (it
imports `inspect`, `ast`, `dis`, `tokenize`) and each class about 0.6 ms (it compiles each
method apart and inspects every annotation): some 50 ms per command, a third of the whole run
(measured with ``python -X importtime``; see bench/bench_analyse.py). This module gives the
same methods for the subset of `dataclasses` the project uses, compiling only `__init__`, and
that when the class's first record is made, with nothing to import (about 0.05 ms a class, and
0.1 ms more for each class a command makes records of).

The subset: fields are the class's annotations in order, with defaults as class attributes or
`field(default=…, default_factory=…, repr=…, compare=…)`; `__init__` takes them positionally
or by name; `__repr__`, `__eq__` (same class only) and, for a frozen record, `__hash__` and a
`__setattr__` that refuses; `order=True` adds the comparisons. No inheritance between records,
no `__post_init__`, no `ClassVar`: a class that needs them says so by failing loudly here.
`fields(record)` names the fields and `replace(record, **changes)` copies one with changes.
"""

from __future__ import annotations

from operator import attrgetter

__all__ = ["record", "field", "fields", "replace", "FrozenRecordError"]


class FrozenRecordError(AttributeError):
    """Assigning to a field of a frozen record."""


_MISSING = object()


class _Field:
    __slots__ = ("default", "default_factory", "repr", "compare")

    def __init__(self, default, default_factory, repr, compare):  # noqa: A002 - dataclasses' names
        self.default, self.default_factory, self.repr, self.compare = default, default_factory, repr, compare


def field(*, default=_MISSING, default_factory=_MISSING, repr: bool = True, compare: bool = True):  # noqa: A002
    """A field with a default made afresh for each record, or left out of repr or comparison."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("a field takes default or default_factory, not both")
    return _Field(default, default_factory, repr, compare)


def record(cls=None, /, *, frozen: bool = False, order: bool = False, repr: bool = True):  # noqa: A002
    """Make `cls` a record: as `@record(frozen=True)` or plain `@record`."""
    if cls is None:
        return lambda c: _build(c, frozen, order, repr)
    return _build(cls, frozen, order, repr)


def fields(value) -> tuple[str, ...]:
    """The names of a record's (or a record class's) fields, in order."""
    return value.__record_fields__


def replace(value, /, **changes):
    """A copy of a record with some fields changed."""
    unknown = set(changes) - set(value.__record_fields__)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    return type(value)(**{name: changes.get(name, getattr(value, name)) for name in value.__record_fields__})


def _build(cls, frozen: bool, order: bool, with_repr: bool):
    own = dict(cls.__dict__)  # as the class was written (the methods below are added to cls)
    if "__post_init__" in own:
        raise TypeError(f"{cls.__name__}: records do not support __post_init__")
    # A record built on a record has its fields first, in their order, then its own (a field
    # named again keeps its place and takes the new default), as a dataclass's would.
    specs: dict = {}
    for base in reversed(cls.__mro__[1:]):
        specs.update(base.__dict__.get("__record_specs__", {}))
    for name, annotation in own.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar", "InitVar")):
            raise TypeError(f"{cls.__name__}.{name}: records do not support {annotation}")
        spec = own.get(name, _MISSING)
        specs[name] = spec if isinstance(spec, _Field) else _Field(spec, _MISSING, True, True)
    names = tuple(specs)
    namespace = {"_MISSING": _MISSING, "_set": object.__setattr__}
    parameters, body, shown, compared = [], [], [], []
    for name in names:
        spec = specs[name]
        if spec.default is not _MISSING:
            namespace[f"_d_{name}"] = spec.default
            parameters.append(f"{name}=_d_{name}")
            value = name
            setattr(cls, name, spec.default)  # as dataclasses do: the default is also the class attribute
        elif spec.default_factory is not _MISSING:
            namespace[f"_f_{name}"] = spec.default_factory
            parameters.append(f"{name}=_MISSING")
            value = f"_f_{name}() if {name} is _MISSING else {name}"
            if name in own:
                delattr(cls, name)
        else:
            if parameters and "=" in parameters[-1]:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
            parameters.append(name)
            value = name
        # a frozen record's fields written into its __dict__ (its __setattr__ refuses): a third
        # quicker than object.__setattr__ for each, and a rule file's reading makes a record for
        # every YAML node and position (bench/bench_exact.py)
        body.append(f"_fields[{name!r}] = {value}" if frozen else f"self.{name} = {value}")
        if spec.repr:
            shown.append(name)
        if spec.compare:
            compared.append(name)

    # Only __init__ is compiled (it runs for every record made), and only when the first record of
    # the class is made: a command makes records of a few of the package's classes, and compiling
    # each class's was most of the time its modules took to import. The other methods are shared
    # closures over a C attribute getter, which cost nothing to define.
    if frozen and body:
        if "__slots__" in own:  # (no __dict__ to write into)
            body = [line.replace("_fields[", "_set(self, ").replace("] = ", ", ", 1) + ")" for line in body]
        else:
            body.insert(0, "_fields = self.__dict__")
    source = f"def __init__(self, {', '.join(parameters)}):\n    " + "\n    ".join(body or ["pass"])

    def __init__(self, *args, **kwargs):
        exec(source, namespace)  # noqa: S102 - our own source, made of the class's field names
        made = namespace["__init__"]
        made.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = made
        made(self, *args, **kwargs)

    methods = {"__init__": __init__}
    key = _getter(compared)

    def __eq__(self, other):
        return key(self) == key(other) if other.__class__ is self.__class__ else NotImplemented

    methods["__eq__"] = __eq__
    if with_repr:
        shown_key = _getter(shown)

        def __repr__(self):
            inside = ", ".join(f"{name}={value!r}" for name, value in zip(shown, shown_key(self)))
            return f"{self.__class__.__qualname__}({inside})"

        methods["__repr__"] = __repr__
    if frozen:
        def __hash__(self):
            return hash(key(self))

        def __setattr__(self, name, value):
            raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen {cls.__name__}")

        def __delattr__(self, name):
            raise FrozenRecordError(f"cannot delete field {name!r} of a frozen {cls.__name__}")

        methods.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
    if order:
        def __lt__(self, other):
            return key(self) < key(other) if other.__class__ is self.__class__ else NotImplemented

        def __le__(self, other):
            return key(self) <= key(other) if other.__class__ is self.__class__ else NotImplemented

        def __gt__(self, other):
            return key(self) > key(other) if other.__class__ is self.__class__ else NotImplemented

        def __ge__(self, other):
            return key(self) >= key(other) if other.__class__ is self.__class__ else NotImplemented

        methods.update(__lt__=__lt__, __le__=__le__, __gt__=__gt__, __ge__=__ge__)
    for method, function in methods.items():
        if method not in own:
            function.__qualname__ = f"{cls.__qualname__}.{method}"
            setattr(cls, method, function)
    if not frozen and "__eq__" not in own and "__hash__" not in own:
        cls.__hash__ = None  # mutable and compared by value: unhashable, as with dataclasses
    cls.__record_fields__ = names
    cls.__record_specs__ = specs
    cls.__match_args__ = names
    return cls


def _getter(names: list):
    """A function from a record to the tuple of these fields (attrgetter gives a bare value for
    one name and needs at least one)."""
    if not names:
        return lambda value: ()
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda value: (single(value),)
    return attrgetter(*names)

