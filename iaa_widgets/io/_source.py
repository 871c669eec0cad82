"""What :func:`~iaa_widgets.read` reads from: a folder or a plain file by its path (read
again by the reader), or the bytes of anything that can be read only once, read once
here: a pipe (``<(zcat export.jsonl.gz)``), a named pipe, an open file, a
compressed file (gzip, bzip2, xz) or the one file of a zip archive. Formats are then
recognised on those bytes, so that nothing read to recognise them is lost."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import select
import stat
import zipfile
from dataclasses import dataclass

from ..errors import AgreementError
from .csv import MissingPath

__all__ = ["Source", "open_source", "WAIT"]

WAIT = 60.0  # seconds a pipe may stay silent before read gives up (wait=)
HEAD = 1 << 20  # bytes looked at to recognise a format: the bound of detection
_CHUNK = 1 << 20
# magic numbers of the compressed formats the standard library reads, and their suffixes
_COMPRESSED = {b"\x1f\x8b": ("gzip", gzip.decompress, ".gz"),
               b"BZh": ("bzip2", bz2.decompress, ".bz2"),
               b"\xfd7zXZ\x00": ("xz", lzma.decompress, ".xz")}


@dataclass(frozen=True)
class Source:
    """A folder or plain file (``path``), or the bytes read once (``data``); ``name``
    names it in messages, its suffix (``.csv``, ``.rttm`` …) is that of the file within
    any compression, ``how`` says how the bytes were read (a note)."""

    name: str
    path: str | None = None
    data: bytes | None = None
    how: str = ""

    @property
    def is_dir(self) -> bool:
        return self.path is not None and os.path.isdir(self.path)

    @property
    def suffix(self) -> str:
        return os.path.splitext(self._base())[1].lower()

    @property
    def stem(self) -> str:
        """The file name without its suffixes: the annotator of a one-annotator file."""
        base = self._base()
        return os.path.splitext(base)[0] or base

    def _base(self) -> str:
        """The file's name (a zip member's), without a compression suffix."""
        base = os.path.basename(self.name.split(":")[-1] if self.data is not None
                                else self.name)
        for _, _, ending in _COMPRESSED.values():
            base = base.removesuffix(ending)
        return base

    def head(self) -> bytes:
        """The first :data:`HEAD` bytes, all detection looks at."""
        if self.data is not None:
            return self.data[:HEAD]
        with open(self.path, "rb") as fh:
            return fh.read(HEAD)

    def opened(self):
        """What a reader reads: the path, or the bytes as a binary file named as the
        source (errors name it)."""
        if self.data is None:
            return self.path
        out = io.BytesIO(self.data)
        out.name = self.name
        return out


def open_source(source, wait: float = WAIT) -> Source:
    """``source`` as a :class:`Source`: a path to a folder or plain file stays a path;
    a pipe or named pipe, an open file, a compressed file and a zip of one file
    are read once, whole (a named pipe waits at most ``wait`` seconds of silence)."""
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not wait > 0:
        raise AgreementError(f"read: wait={wait!r}; expected the seconds (> 0) a pipe may "
                             "stay silent before read gives up")
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "the stream"))
        data = _read_all(source, name)
        return _unpacked(Source(name, data=data, how=f"read once from {name}"))
    if not isinstance(source, (str, os.PathLike)):
        raise AgreementError(f"read: expected a path to a file or folder, or an open file, "
                             f"got {type(source).__name__}")
    path = os.fspath(source)
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        raise MissingPath(f"read: {path!r}: {err.strerror or err}, so no format to "
                          "recognise; expected a file, a folder, a pipe or an open file "
                          "(pass format= in Python, or pass --format to iaa report, to name "
                          "its format)") from None
    if stat.S_ISDIR(mode):
        return Source(path, path=path)
    if stat.S_ISFIFO(mode):  # a pipe or a named pipe: it can be read once
        return _unpacked(Source(path, data=_drain(path, wait),
                                how=f"read once from the pipe {path}"))
    if not stat.S_ISREG(mode):  # /dev/zero never ends, a terminal waits for a person
        raise AgreementError(f"read: {path!r} is a device or a socket, not a file, a folder "
                             "or a pipe; save the export to a file, or pipe it in")
    with open(path, "rb") as fh:
        magic = fh.read(6)
    if any(magic.startswith(m) for m in _COMPRESSED):
        with open(path, "rb") as fh:
            return _unpacked(Source(path, data=fh.read()))
    if zipfile.is_zipfile(path):
        return _zip(path)
    return Source(path, path=path)


def _read_all(stream, name: str) -> bytes:
    """All of an open file, once, as bytes (a text file's text as UTF-8)."""
    try:
        data = stream.read()
    except (OSError, ValueError) as err:  # closed, not readable, a broken compression
        raise AgreementError(f"read: cannot read {name}: {err}") from None
    if isinstance(data, str):
        return data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise AgreementError(f"read: {name}.read() gave a {type(data).__name__}; expected "
                             "an open file giving bytes or text")
    return bytes(data)


def _drain(path: str, wait: float) -> bytes:
    """Everything a pipe gives until its writer closes it. Opened without blocking, so
    that a named pipe nobody writes to is refused after ``wait`` seconds instead of
    hanging; ``wait`` bounds each silence, not the whole read (``math.inf``: no bound,
    as ``cat`` waits)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        raise MissingPath(f"read: cannot open {path!r}: {err.strerror or err}") from None
    chunks, hung_up = [], False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:  # a writer is there, with nothing written yet
                chunk = None
            if chunk:
                chunks.append(chunk)
                continue
            if chunk == b"" and (chunks or hung_up):  # the writer has closed it
                return b"".join(chunks)
            events = poller.poll(wait * 1000 if wait * 1000 < 2 ** 31 - 1 else None)
            if not events:
                raise AgreementError(
                    f"read: nothing came from {path!r} in {wait:g} s" +
                    (" after the first bytes" if chunks else
                     " (a named pipe that no program writes to yet)") +
                    "; start the program that writes it, or pass wait= (seconds) to wait "
                    "longer")
            hung_up = any(e & select.POLLHUP for _, e in events)
    finally:
        os.close(fd)


def _unpacked(source: Source) -> Source:
    """Compressed bytes decompressed (gzip, bzip2, xz, by their magic number); a zip of
    one file opened."""
    data = source.data
    for magic, (kind, decompress, _) in _COMPRESSED.items():
        if data.startswith(magic):
            try:
                data = decompress(data)
            except (OSError, EOFError, ValueError, lzma.LZMAError) as err:
                raise AgreementError(f"read: {source.name} starts as {kind} but does not "
                                     f"decompress ({err}); expected a whole {kind} file"
                                     ) from None
            how = f"{source.how}, " if source.how else ""
            return Source(source.name, data=data, how=f"{how}decompressed from {kind}")
    if data.startswith(b"PK\x03\x04"):
        return _zip(io.BytesIO(data), source.name, source.how)
    return source


def _zip(archive, name: str | None = None, how: str = "") -> Source:
    """A zip: doccano's export (``.jsonl`` members, one per annotator: kept whole, its
    path or its bytes), or a zip of one file (that file's bytes); any other is refused.
    ``how``: how its bytes were read."""
    name = name or os.fspath(archive)
    try:
        with zipfile.ZipFile(archive) as z:
            members = [m for m in z.infolist() if not m.is_dir()
                       and not m.filename.startswith("__MACOSX")]
            if any(m.filename.endswith(".jsonl") for m in members):  # doccano's
                return Source(name, path=name) if isinstance(archive, (str, os.PathLike)) \
                    else Source(name, data=archive.getvalue(), how=how)
            if len(members) != 1:
                raise AgreementError(
                    f"read: {name} is a zip of {len(members)} files "
                    f"({', '.join(m.filename for m in members[:5])}"
                    f"{' …' if len(members) > 5 else ''}); read are doccano's export zip "
                    "(.jsonl files) and a zip of one file: unzip it and read the file or "
                    "folder you mean")
            data = z.read(members[0])
    except zipfile.BadZipFile as err:
        raise AgreementError(f"read: {name} is not a readable zip ({err})") from None
    return _unpacked(Source(f"{name}:{members[0].filename}", data=data,
                            how=f"{how}, unzipped" if how else f"unzipped from {name}"))
