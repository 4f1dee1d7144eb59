"""The feed imports generation, never the reverse (docs/ARCHITECTURE.md): no
module under generation/ names the feed app, not even for type checking, and no
module of the site imports inside a function to dodge an import loop. An
import inside a function is allowed only where it has a reason of its own:
Django's AppConfig.ready(), or a heavy library (torch, OpenCV, scikit-learn,
...) that only some processes or commands need, whether imported directly or
through a module of ours that loads it. The lab sits above the product: it
imports generation, and nothing of the product imports the lab or a library
only the lab installs. Inside the feed, its ranking (feed/ranking/) sits under
its doors (API, views, serializers), and its lowest modules under
feed/models.py."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("feed", "generation", "memesite")  # the product: what the site runs
LAB = "lab"
# What lab/requirements.txt adds to the site's: the site runs without them (make install).
LAB_LIBRARIES = ("sklearn", "matplotlib", "tqdm")
# Libraries worth loading only where they are used: each costs seconds or
# hundreds of megabytes, and most processes never need it.
HEAVY = {
    "torch": "the caption model: only caption workers and caption commands",
    "transformers": "the caption model, as torch",
    "sklearn": "the lab's evaluation, judging and content-check training only",
    "matplotlib": "the lab's training plot only",
    "lingua": "language models of ~100 MB, for caption cleaning and filtering",
    "better_profanity": "its word list, read once for the profanity pattern",
    "cv2": "OpenCV, for OCR and painting text out: curation only",
}
# feed/ranking/'s lowest modules: feed/models.py builds Meme's indexes and
# scores and SeenMeme's manager from them, so they import no model at run time.
# The package's other modules import the models.
RANKING_UNDER_MODELS = {
    "feed.ranking.sorts",
    "feed.ranking.scores",
    "feed.ranking.seen",
    "feed.ranking.inserts",
}
# The feed's doors, which call its ranking: the ranking never calls them.
FEED_DOORS = ("feed.api", "feed.views", "feed.serializers", "feed.urls", "feed.admin", "rest_framework")
# In-function imports with no reason above, each with the reason it stays.
EXCEPTIONS = {
    ("generation/captions/keywords.py", "generation.captions.filters"): (
        "not a loop (filters never imports keywords); the content filter's own files keep it"
    ),
}


@dataclass(frozen=True)
class Import:
    path: str  # the importing file, relative to the repository
    module: str  # the imported module, resolved to a file of ours where it is one
    in_function: str | None  # the enclosing function's name, None at module level
    type_checking: bool


def python_files(package: str) -> Iterator[Path]:
    yield from sorted((ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_ours(module: str) -> bool:
    return (ROOT / Path(*module.split("."))).with_suffix(".py").is_file() or (
        ROOT / Path(*module.split(".")) / "__init__.py"
    ).is_file()


def imported_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    # "from generation import jobs" imports the module generation.jobs
    return [f"{base}.{alias.name}" if is_ours(f"{base}.{alias.name}") else base for alias in node.names]


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


@cache
def imports_of(path: Path) -> tuple[Import, ...]:
    relative = str(path.relative_to(ROOT))
    found: list[Import] = []

    def visit(node: ast.AST, function: str | None, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for module in imported_modules(child):
                    found.append(Import(relative, module, function, type_checking))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                name = getattr(child, "name", "<lambda>")
                visit(child, f"{function}.{name}" if function else name, type_checking)
            elif isinstance(child, ast.If) and is_type_checking(child):
                visit(child, function, True)
            else:
                visit(child, function, type_checking)

    visit(ast.parse(path.read_text(encoding="utf-8")), None, False)
    return tuple(found)


@cache
def loaded_on_import(module: str) -> frozenset[str]:
    """Every module importing ``module`` loads: its packages and module-level imports, transitively."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:n]) for n in range(1, len(parts))]
        path = ROOT / Path(*parts)
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        if source.is_file():
            todo += [i.module for i in imports_of(source) if i.in_function is None and not i.type_checking]
    return frozenset(seen)


def heavy_library_of(module: str) -> str | None:
    return next((name for name in loaded_on_import(module) if name.split(".")[0] in HEAVY), None)


def test_nothing_in_generation_imports_the_feed() -> None:
    reverse = [
        f"{i.path} imports {i.module}"
        for path in python_files("generation")
        for i in imports_of(path)
        if i.module == "feed" or i.module.startswith("feed.")
    ]
    assert reverse == []


def test_nothing_in_the_product_imports_the_lab() -> None:
    """Not at module level, not in a function, not for type checking: the lab may change or be
    absent (a production install) and the site is the same."""
    upward = [
        f"{i.path} imports {i.module}"
        for package in PACKAGES
        for path in python_files(package)
        for i in imports_of(path)
        if i.module.split(".")[0] == LAB
    ]
    assert upward == []


def test_nothing_in_the_product_imports_a_library_only_the_lab_installs() -> None:
    lab_only = [
        f"{i.path} imports {i.module}"
        for package in PACKAGES
        for path in python_files(package)
        for i in imports_of(path)
        if i.module.split(".")[0] in LAB_LIBRARIES
    ]
    assert lab_only == []


def test_the_sites_mechanisms_import_no_app() -> None:
    """memesite's middleware, parsers, logs and refusals sit under both apps;
    only the composition root (settings, URLs, Celery, WSGI) names them."""
    root = {"memesite/urls.py", "memesite/settings.py", "memesite/celery.py", "memesite/wsgi.py"}
    upward = [
        f"{i.path} imports {i.module}"
        for path in python_files("memesite")
        if str(path.relative_to(ROOT)) not in root
        for i in imports_of(path)
        if i.module.split(".")[0] in ("feed", "generation")
    ]
    assert upward == []


def test_the_feeds_ranking_imports_none_of_the_feeds_doors() -> None:
    upward = [
        f"{i.path} imports {i.module}"
        for path in python_files("feed/ranking")
        for i in imports_of(path)
        if i.module == "feed" or i.module.startswith(FEED_DOORS)
    ]
    assert upward == []


def test_the_feeds_models_import_only_the_rankings_lowest_modules() -> None:
    """models.py imports from feed/ranking/ only the modules under it, and those
    import no other module of the feed at run time (SeenMeme's queryset names
    its model for type checking only)."""
    models = imports_of(ROOT / "feed" / "models.py")
    assert {i.module for i in models if i.module.startswith("feed.ranking")} <= RANKING_UNDER_MODELS
    upward = [
        f"{i.path} imports {i.module}"
        for module in sorted(RANKING_UNDER_MODELS)
        for i in imports_of((ROOT / Path(*module.split("."))).with_suffix(".py"))
        if i.module.split(".")[0] == "feed" and i.module not in RANKING_UNDER_MODELS and not i.type_checking
    ]
    assert upward == []


def test_the_ranking_package_re_exports_nothing() -> None:
    """Each of its names is imported from the module that holds it."""
    assert imports_of(ROOT / "feed" / "ranking" / "__init__.py") == ()


def test_imports_inside_functions_have_a_reason() -> None:
    unexplained = [
        f"{i.path}: {i.module} in {i.in_function}()"
        for package in (*PACKAGES, LAB)
        for path in python_files(package)
        for i in imports_of(path)
        if i.in_function is not None
        and not (i.path.endswith("apps.py") and i.in_function == "ready")  # Django's place for it
        and heavy_library_of(i.module) is None
        and (i.path, i.module) not in EXCEPTIONS
    ]
    assert unexplained == []


def test_generation_has_no_import_loops() -> None:
    """Module-level imports (type-checking ones included) between generation's modules form no cycle."""
    graph = {
        module_name(path): {
            i.module
            for i in imports_of(path)
            if i.in_function is None and i.module.startswith("generation") and is_ours(i.module)
        }
        for path in python_files("generation")
    }
    cycles = [cycle for module in sorted(graph) if (cycle := cycle_from(module, graph))]
    assert cycles == []


def cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from ``start`` back to itself, if there is one."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        module, path = stack.pop()
        for imported in graph.get(module, ()):
            if imported == start:
                return [*path, start]
            if imported not in seen:
                seen.add(imported)
                stack.append((imported, [*path, imported]))
    return None


def test_the_caption_types_load_without_torch() -> None:
    """The jobs ↔ captions seam is typed by plain dataclasses a web process can import."""
    assert heavy_library_of("generation.captions.types") is None
    assert heavy_library_of("generation.captions") is None
    assert heavy_library_of("generation.services") is None
