"""`tablehall reasons`: every refusal reason the server can answer, read from the code.

Reasons are stable API. This reads the source of every server package (the
rules contract, the games, the platform, the services) by AST and lists each
constructor call of an error type (`IllegalCommand`, `InvalidCommand`,
`InvalidOptions`, `BadRequest`, `Refused`, `NotFound`, `PermissionDenied`,
`Unauthenticated`, ...) whose reason is a literal, with the gRPC status it is
answered with (from the one mapping in `tablehall_platform.errors`) and its
English and Russian texts. Helpers that pass their parameters on to such a
constructor (`illegal(reason, en, ru)`) count as constructors, and so do
`super().__init__(...)` calls of error subclasses (`NotYourTurn`).

`docs/reasons.md` is this command's output; a test fails when it falls behind.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tablehall_platform.errors import ServiceError, as_refusal
from tablehall_rules.errors import RuleError
from tablehall_rules.registry import installed_games

# the packages of the server, in the order of their sections
PACKAGES = (
    "tablehall_rules",
    "tablehall_stream",
    "tablehall_boards",
    *sorted({target.split(".")[0].split(":")[0] for target in installed_games().values()}),
    "tablehall_platform",
    "tablehall_eventstore",
    "tablehall_match",
    "tablehall_lobby",
    "tablehall_timer",
    "tablehall_projection",
    "tablehall_bot",
    "tablehall_cli",
)
# parameter names that carry the texts
EN_NAMES = ("en", "message")
RU_NAMES = ("ru",)
COMPUTED = "(computed)"
# error types that pass on a reason made elsewhere (another instance's refusal, relayed unchanged)
PASS_THROUGH = frozenset({"Relayed"})


@dataclass(frozen=True, order=True)
class Reason:
    reason: str
    status: str
    en: str
    ru: str
    where: str  # "package/module.py"


@dataclass(frozen=True)
class Constructor:
    """How a callable's arguments map to reason, en, ru; and the status it is answered with."""

    status: str
    reason_at: int
    en_at: int | None
    ru_at: int | None
    names: tuple[str, ...]  # the parameter names, for keyword arguments


def _subclasses(base: type) -> Iterator[type]:
    """Subclasses defined in the server's packages (never a test's)."""
    sub: type
    for sub in base.__subclasses__():
        if sub.__module__.split(".")[0] in PACKAGES:
            yield sub
        yield from _subclasses(sub)


def _status(cls: type) -> str | None:
    """The gRPC status an instance of `cls` is answered with (the real mapping)."""
    try:
        if issubclass(cls, RuleError):
            return _rule_status(cls)
        if issubclass(cls, ServiceError):
            return str(cls.code.name)
    except Exception:
        return None
    return None


def _rule_status(cls: type[RuleError]) -> str:
    error: RuleError = RuleError.__new__(cls)  # no __init__: subclasses may take other arguments
    error.reason, error.message_en, error.message_ru, error.details = "PROBE", "", "", {}
    return str(as_refusal(error).code.name)


def _import_all() -> list[tuple[str, Path]]:
    """Import every module of the server packages (so every error class exists); their sources."""
    sources: list[tuple[str, Path]] = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        root = Path(package.__file__ or "").parent
        sources.extend((name, path) for path in sorted(root.rglob("*.py")))
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            importlib.import_module(info.name)
    return sources


def _error_classes() -> dict[str, Constructor]:
    found: dict[str, Constructor] = {}
    for cls in [*_subclasses(RuleError), *_subclasses(ServiceError), RuleError, ServiceError]:
        status = _status(cls)
        own_init = cls.__init__ not in (RuleError.__init__, ServiceError.__init__)  # type: ignore[misc]
        if status is None or own_init:
            continue  # a class with its own __init__ is found through its super().__init__ call
        if issubclass(cls, RuleError):
            found[cls.__name__] = Constructor(status, 0, 1, 2, ("reason", "en", "ru", "details"))
        else:
            found[cls.__name__] = Constructor(status, 0, 1, None, ("reason", "message", "ru", "metadata"))
    return found


def _text(node: ast.expr | None, defaults: dict[str, str]) -> str:
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                parts.append("{" + ast.unparse(value.value) + "}")
        return "".join(parts)
    if isinstance(node, ast.Name) and node.id in defaults:
        return defaults[node.id]
    return COMPUTED


def _argument(call: ast.Call, ctor: Constructor, at: int | None, names: tuple[str, ...]) -> ast.expr | None:
    if at is not None and at < len(call.args):
        return call.args[at]
    wanted = {ctor.names[at]} if at is not None and at < len(ctor.names) else set()
    wanted |= set(names)
    return next((kw.value for kw in call.keywords if kw.arg in wanted), None)


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _defaults(function: ast.FunctionDef | ast.AsyncFunctionDef | None) -> dict[str, str]:
    if function is None:
        return {}
    args = function.args.args
    pairs = zip(args[len(args) - len(function.args.defaults) :], function.args.defaults, strict=True)
    return {a.arg: d.value for a, d in pairs if isinstance(d, ast.Constant) and isinstance(d.value, str)}


Functions = dict[str, ast.FunctionDef]  # the module-level functions a module defines or imports, by name


def _function_index(parsed: list[tuple[str, Path, ast.Module]], module_names: list[str]) -> list[Functions]:
    """For each module: its own module-level functions and those it imports by name from the others."""
    own = [{f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)} for _, _, tree in parsed]
    by_module = dict(zip(module_names, own, strict=True))
    index = []
    for (_, _, tree), functions in zip(parsed, own, strict=True):
        known = dict(functions)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module in by_module:
                for alias in node.names:
                    if alias.name in by_module[node.module]:
                        known[alias.asname or alias.name] = by_module[node.module][alias.name]
        index.append(known)
    return index


def _returned_problems(function: ast.FunctionDef, functions: Functions, depth: int = 0) -> list[ast.Tuple]:
    """The literal `(reason, en, ru)` tuples a "problem" function returns (following `return other(...)`)."""
    found: list[ast.Tuple] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        if isinstance(node.value, ast.Tuple):
            found.append(node.value)
        elif depth < 3:
            found.extend(_problems_of(node.value, functions, depth + 1))
    return found


def _problems_of(expr: ast.expr, functions: Functions, depth: int = 0) -> list[ast.Tuple]:
    """The problem tuples the calls in `expr` (`a(...) or b(...)`) can return."""
    found: list[ast.Tuple] = []
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            found.extend(_returned_problems(functions[node.func.id], functions, depth))
    return found


class _Scanner(ast.NodeVisitor):
    def __init__(
        self, where: str, constructors: dict[str, Constructor], class_status: dict[str, str], functions: Functions
    ) -> None:
        self.where = where
        self.constructors = constructors
        self.class_status = class_status
        self.functions = functions
        self.found: list[Reason] = []
        self.unread: list[str] = []
        self._class: str | None = None
        self._function: ast.FunctionDef | ast.AsyncFunctionDef | None = None

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer, self._class = self._class, node.name
        self.generic_visit(node)
        self._class = outer

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer, self._function = self._function, node
        self.generic_visit(node)
        self._function = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        ctor = self._constructor(node)
        if ctor is None or self._class in PASS_THROUGH:
            return
        if len(node.args) == 1 and isinstance(node.args[0], ast.Starred):  # illegal(*problem)
            self._problems(node.args[0].value, ctor)
            return
        reason = _argument(node, ctor, ctor.reason_at, ())
        defaults = _defaults(self._function)
        if not (isinstance(reason, ast.Constant) and isinstance(reason.value, str)):
            if not (isinstance(reason, ast.Name) and self._passes_on(reason.id)):
                self._unread()
            return
        en = _text(_argument(node, ctor, ctor.en_at, EN_NAMES), defaults)
        ru = _text(_argument(node, ctor, ctor.ru_at, RU_NAMES), defaults)
        self.found.append(Reason(reason.value, ctor.status, en, ru, self.where))

    def _problems(self, value: ast.expr, ctor: Constructor) -> None:
        """`ctor(*problem)`: the tuples that `problem` was assigned from in this function."""
        sources: list[ast.expr] = [value]
        if isinstance(value, ast.Name) and self._function is not None:
            sources = [
                node.value
                for node in ast.walk(self._function)
                if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets)
            ]
        tuples = [t for source in sources for t in _problems_of(source, self.functions)]
        if not tuples:
            self._unread()
        for problem in tuples:
            items = problem.elts
            reason = items[ctor.reason_at] if len(items) > ctor.reason_at else None
            if not (isinstance(reason, ast.Constant) and isinstance(reason.value, str)):
                self._unread()
                continue
            en = _text(items[ctor.en_at], {}) if ctor.en_at is not None and ctor.en_at < len(items) else ""
            ru = _text(items[ctor.ru_at], {}) if ctor.ru_at is not None and ctor.ru_at < len(items) else ""
            self.found.append(Reason(reason.value, ctor.status, en, ru, self.where))

    def _unread(self) -> None:
        name = self._function.name if self._function is not None else "<module>"
        self.unread.append(f"{self.where} ({name})")

    def _constructor(self, node: ast.Call) -> Constructor | None:
        name = _callee(node)
        is_super = name == "__init__" and isinstance(node.func, ast.Attribute) and _is_super(node.func.value)
        if is_super and self._class in self.class_status:
            return Constructor(self.class_status[self._class], 0, 1, 2, ("reason", "en", "ru"))
        return self.constructors.get(name)

    def _passes_on(self, name: str) -> bool:
        """A helper's own parameter handed on (`def illegal(reason, en, ru): return IllegalCommand(reason, ...)`)."""
        return self._function is not None and name in {a.arg for a in self._function.args.args}


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _helpers(trees: list[ast.Module], constructors: dict[str, Constructor]) -> dict[str, Constructor]:
    """Module-level functions that hand their own parameters on to an error constructor."""
    helpers: dict[str, Constructor] = {}
    for tree in trees:
        for function in tree.body:
            if not isinstance(function, ast.FunctionDef):
                continue
            params = tuple(a.arg for a in function.args.args)
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and _callee(node) in constructors:
                    helper = _as_helper(node, constructors[_callee(node)], params)
                    if helper is not None:
                        helpers[function.name] = helper
    return helpers


def _as_helper(call: ast.Call, ctor: Constructor, params: tuple[str, ...]) -> Constructor | None:
    """`call` inside a function of `params` as that function's own constructor, if it passes its reason on."""
    reason = _argument(call, ctor, ctor.reason_at, ())
    if not (isinstance(reason, ast.Name) and reason.id in params):
        return None

    def position(at: int | None, names: tuple[str, ...]) -> int | None:
        arg = _argument(call, ctor, at, names)
        return params.index(arg.id) if isinstance(arg, ast.Name) and arg.id in params else None

    return Constructor(
        ctor.status, params.index(reason.id), position(ctor.en_at, EN_NAMES), position(ctor.ru_at, RU_NAMES), params
    )


def collect() -> tuple[list[Reason], list[str]]:
    """Every literal reason with its status, texts and module; and the constructor calls not readable."""
    sources = _import_all()
    constructors = _error_classes()
    class_status = {
        cls.__name__: status
        for cls in [*_subclasses(RuleError), *_subclasses(ServiceError)]
        if (status := _status(cls)) is not None
    }
    parsed = [(package, path, ast.parse(path.read_text(), str(path))) for package, path in sources]
    constructors |= _helpers([tree for _, _, tree in parsed], constructors)
    roots = {package: Path(importlib.import_module(package).__file__ or "").parent for package, _, _ in parsed}
    module_names = [_module_name(package, path.relative_to(roots[package])) for package, path, _ in parsed]
    index = _function_index(parsed, module_names)
    found: set[Reason] = set()
    unread: list[str] = []
    for (package, path, tree), functions in zip(parsed, index, strict=True):
        scanner = _Scanner(f"{package}/{path.relative_to(roots[package])}", constructors, class_status, functions)
        scanner.visit(tree)
        found.update(scanner.found)
        unread.extend(scanner.unread)
    return sorted(found), sorted(set(unread))


def _module_name(package: str, relative: Path) -> str:
    parts = [package, *relative.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or "—"


def render(reasons: list[Reason], unread: list[str]) -> str:
    lines = [
        "# Refusal reasons",
        "",
        "Generated from the code by `tablehall reasons > docs/reasons.md`; a test fails when this page falls",
        "behind. Every refusal is a `google.rpc.Status` with one `ErrorInfo` (domain `tablehall`) whose `reason`",
        "is stable API, and `LocalizedMessage` details in `en` and `ru` (`docs/api.md`, Errors). A reason may",
        "appear with more than one status or text where two places refuse for the same cause; `{name}` stands",
        "for a value filled in at run time.",
        "",
        f"{len({r.reason for r in reasons})} reasons.",
        "",
        "| reason | status | English | Russian | raised in |",
        "|---|---|---|---|---|",
    ]
    for r in reasons:
        lines.append(f"| `{r.reason}` | {r.status} | {_cell(r.en)} | {_cell(r.ru)} | `{r.where}` |")
    if unread:
        lines += ["", "Constructor calls whose reason is not a literal (not listed above):", ""]
        lines += [f"- `{where}`" for where in unread]
    return "\n".join(lines) + "\n"


def main(check: str | None = None) -> int:
    """Print the page; with `check`, compare it with that file instead (exit 1 when it differs)."""
    page = render(*collect())
    if check is None:
        sys.stdout.write(page)
        return 0
    if Path(check).read_text() != page:
        print(f"{check} is behind the code: run `tablehall reasons > {check}`", file=sys.stderr)
        return 1
    return 0
