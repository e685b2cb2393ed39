"""Check a certificate of a game value with nothing but the game's rules, run on Python ints.

What this module imports, and why that keeps it independent of the search that built the certificate:

- :mod:`gameproof.certify.records`, to read the file (and hash a game's rules file), and
  :mod:`gameproof.certify.proven`, the set of the positions accepted so far (standard library only);
- :func:`gameproof.framework.registry.load_game`, for the game's declaration by name (or from the rules
  file the certificate names, once that file is found to hold what it held when the certificate was
  written): its rule functions (``start``, ``legal`` and ``legal_<part>``, ``play``, ``result``,
  ``pass_turn``) bound to the game's parameters as plain Python, its board and its declared symmetries
  (:mod:`gameproof.framework.declaration`), and how its moves are coded and handed to the rules
  (:mod:`gameproof.framework.moves`);
- :class:`gameproof.framework.state.RulesState`, only to draw a position that is rejected;
- :mod:`gameproof.certify.won`, which verifies from the board's geometry that a side has won a built-in game
  whatever is played (Hex: joined by pairs of empty cells), where a certificate of such a game may stop;
- :mod:`gameproof.interrupts`, so that the processes sharing a check stop with the one that started them.

Nothing from :mod:`gameproof.search`, the numba kernels or their keys: legal moves, results, passes and
the symmetric images of positions are computed here from the rule functions and the board's geometry.
What it trusts: the rule functions, nothing else a user declares. Positions are merged by symmetry (the group
the declared symmetries generate); for a game from a user's file every image of every accepted position is
checked as a record is (at the image of a claimant's position, the image of its chosen move first), so a
symmetry that the rules break anywhere the proof goes is a finding that names it, never a value proven through
it. A built-in game's symmetries, which the test suite checks against its rules, are trusted unless
``every_image`` asks (``certificate check --every-image``): checking each image costs about as many times the
check as a position has distinct images.

A part is accepted when, record by record in file order, each position's moves -- the claimant's one
chosen move, or every move of the other side -- either end the game well for the claimant (a win; a
draw too for a part whose goal is a draw), or lead to a position that, up to symmetry, was accepted
earlier in the part, or to one where :mod:`gameproof.certify.won` verifies that the claimant has won, and the same holds at each of the position's images; and the root is accepted by the
end. By induction on the file order every image of every accepted position is won (or held) by the claimant,
which also rules out cycles. The value is then read from the parts and compared with the one claimed.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gameproof.answers import Value
from gameproof.certify.proven import ProvenKeys
from gameproof.certify.records import CertificateReader, Goal, Header, Part, file_sha256
from gameproof.certify.won import won_verifier
from gameproof.errors import BadInput, RunFailed
from gameproof.framework.declaration import DRAW, LOSS, ONGOING, WIN, Symmetry, split_words
from gameproof.framework.diagram import format_position, position_problem
from gameproof.framework.game import Game
from gameproof.framework.moves import bits_of, complete_moves
from gameproof.framework.registry import is_builtin, load_game
from gameproof.framework.state import RulesState
from gameproof.interrupts import ctrl_c_held, die_with_driver

_CHUNK = 12  # bits of a word looked up at once when computing symmetric images
_PROGRESS_EVERY = 1 << 16
_ORDER = (Value.LOSS, Value.DRAW, Value.WIN)
#: The fewest positions of a part that several processes share the check of (fewer are checked in one).
SHARED_LEAST = 1 << 18
_KEY_COST = 0.15  # reading a record's key, as a share of checking it (measured: bench/bench_certificate_check.py)
_POLL_SECONDS = 0.5


@dataclass(frozen=True)
class Finding:
    """Why a certificate is rejected, and where: the part and record (1-based; None for the claim as a whole)."""

    message: str
    part: int | None = None
    node: int | None = None
    board: str | None = None  # the position, drawn
    position: str | None = None  # the position on one line: the cells row by row from a1, and who is to move

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "part": self.part, "node": self.node, "position": self.position,
                "board": self.board}


@dataclass
class PartReport:
    """One part as checked: who claims what, how many positions were checked, and in how long."""

    part: Part
    checked: int = 0
    seconds: float = 0.0

    def to_json(self, names: tuple[str, str]) -> dict[str, Any]:
        return {"claimant": names[self.part.claimant], "goal": self.part.goal.value, "nodes": self.part.nodes,
                "checked": self.checked, "seconds": round(self.seconds, 3)}


@dataclass
class Report:
    """The verdict on a certificate: accepted when there is no finding; ``value`` is the value proven."""

    path: str
    header: Header
    names: tuple[str, str]
    game: str  # the game's registered name
    played: str  # the header's moves, named by the game's rules (the position shown is computed from them)
    position: str | None = None  # the header's position as text, once the rules accept it (None: the start)
    to_move: int | None = None
    value: Value | None = None
    parts: list[PartReport] = field(default_factory=list)
    finding: Finding | None = None
    seconds: float = 0.0

    @property
    def accepted(self) -> bool:
        return self.finding is None

    def to_json(self) -> dict[str, Any]:
        rules = self.header.rules_file
        return {"certificate": self.path, "game": self.game,
                "rules_file": None if rules is None else {"path": rules.path, "sha256": rules.sha256},
                "position": self.position, "played": self.played,
                "to_move": None if self.to_move is None else self.names[self.to_move],
                "claimed": self.header.value.value, "accepted": self.accepted,
                "value": None if self.value is None else self.value.value,
                **({} if self.header.threshold is None else {"score_threshold": self.header.threshold, "proves": None
                   if self.value is None or self.to_move is None else self.header.claim(self.to_move, self.value)}),
                "parts": [part.to_json(self.names) for part in self.parts],
                "finding": None if self.finding is None else self.finding.to_json(), "seconds": round(self.seconds, 3)}


def _bit_map(game: Game, symmetry: Symmetry, span: int) -> tuple[int, ...]:
    """Where `symmetry` takes each of the board's first `span` bits (bits that are no cell stay where they are)."""
    board = game.board
    image = list(range(span))
    for row in range(board.rows):
        for col in range(board.cols):
            image[board.bit(row, col)] = board.bit(*symmetry.apply(row, col, board.rows, board.cols))
    if sorted(image) != list(range(span)):
        raise BadInput(f"{game.name}: the declared symmetry {symmetry.value} does not map the board onto itself")
    return tuple(image)


def symmetry_group(game: Game, span: int) -> list[tuple[Symmetry, tuple[int, ...]]]:
    """The symmetries that the game's declared ones generate (identity first, then the declared ones, then what
    composing them adds), each with its map of the first `span` bits: a group, so that two positions share a
    canonical key exactly when one is an image of the other."""
    group = {}
    for symmetry in game.symmetries:
        group.setdefault(_bit_map(game, symmetry, span), symmetry)
    fits = [s for s in Symmetry if game.board.rows == game.board.cols or not s.needs_square]
    named = {}
    for symmetry in reversed(fits):  # a map that several symmetries share (a 1x1 board) takes the first's name
        named[_bit_map(game, symmetry, span)] = symmetry
    grown = True
    while grown:
        grown = False
        for first in list(group):
            for second in list(group):
                composed = tuple(first[bit] for bit in second)
                if composed not in group:
                    group[composed], grown = named[composed], True
    return [(symmetry, image) for image, symmetry in group.items()]


class Images:
    """Canonical keys of positions: the least of a position's images under the symmetries that the game's declared
    ones generate (with the side to move), computed from the board's geometry; and the images themselves.

    A table per word and chunk of bits maps the chunk to its images under every symmetry at once, each
    image in its own lane of one big integer, so a key is a few lookups and a minimum over the lanes."""

    def __init__(self, game: Game) -> None:
        board = game.board
        self.game = game
        self.span = span = board.mask.bit_length()
        self.group = symmetry_group(game, span)
        self.maps = dict(self.group)
        maps = list(self.maps.values())
        self.declared = frozenset(game.symmetries)
        self.layers = layers = game.layers
        self.one_word_layers = game.layer_words == 1
        lane = layers * span
        self.lane_mask = (1 << lane) - 1
        self.offsets = [index * lane for index in range(len(maps))]
        self.tables: list[tuple[int, int, int, list[int]]] = []  # (layer, shift, chunk mask, images of each chunk)
        for word in range(layers):
            for shift in range(0, span, _CHUNK):
                bits = min(_CHUNK, span - shift)
                single = [sum(1 << (offset + word * span + image[shift + bit]) for offset, image in zip(self.offsets, maps))
                          for bit in range(bits)]
                table = [0] * (1 << bits)
                for chunk in range(1, 1 << bits):
                    table[chunk] = table[chunk & (chunk - 1)] | single[(chunk & -chunk).bit_length() - 1]
                self.tables.append((word, shift, (1 << bits) - 1, table))

    def key(self, words: tuple[int, ...], to_move: int) -> int | tuple[int, tuple[int, ...]]:
        """Equal for two positions exactly when one is an image of the other with the same side to move."""
        # Game.layer_sets inlined for one-word layers: a call costs a fifth of the key, on the check's hot path.
        words = words[: self.layers] if self.one_word_layers else tuple(self.game.layer_sets(words))
        images = 0
        for word, shift, mask, table in self.tables:
            images |= table[words[word] >> shift & mask]
        lane = least = self.lane_mask
        for offset in self.offsets:  # a loop, not min() over a list: twice as fast
            image = images >> offset & lane
            if image < least:
                least = image
        if max(words) >> self.span:  # bits beyond the board's cells stay where they are
            return least << 1 | to_move, tuple(word >> self.span for word in words)
        return least << 1 | to_move

    def others(self, words: tuple[int, ...]) -> Iterator[tuple[Symmetry, tuple[int, ...]]]:
        """Each image of a position that differs from it and from the images before it, with a symmetry giving it."""
        game, span = self.game, self.span
        layers = words[: self.layers] if self.one_word_layers else tuple(game.layer_sets(words))
        images = 0
        for word, shift, mask, table in self.tables:
            images |= table[layers[word] >> shift & mask]
        cells = (1 << span) - 1
        seen = {tuple(words)}
        for (symmetry, _), offset in zip(self.group[1:], self.offsets[1:]):
            lane = images >> offset
            mapped = [lane >> (index * span) & cells | layer >> span << span for index, layer in enumerate(layers)]
            image = tuple(mapped) if self.one_word_layers else tuple(
                word for layer in mapped for word in split_words(layer, game.layer_words))
            if image not in seen:
                seen.add(image)
                yield symmetry, image

    def move(self, symmetry: Symmetry, move: int) -> int:
        """The code of `move` under `symmetry` (cells off the board stay where they are; the pass stays the pass)."""
        image = self.maps[symmetry]
        codes = self.game.codes
        if move == codes.pass_move:
            return move
        return codes.encode(tuple(image[cell] if cell < len(image) else cell for cell in codes.decode(move)))

    def named(self, symmetry: Symmetry) -> str:
        """`symmetry` for a finding: declared, or implied by composing declared ones."""
        if symmetry in self.declared:
            return f"the declared symmetry {symmetry.value}"
        shown = ", ".join(s.value for s in self.game.symmetries[1:])
        return f"the symmetry {symmetry.value} (the declared {shown}, composed)"


def check_certificate(path: str, progress: Callable[[int, int], None] | None = None,
                      rules_file: str | None = None, workers: int = 1, game: Game | None = None,
                      every_image: bool | None = None) -> Report:
    """Check the certificate in the file `path`. BadInput (one line) when the file is malformed, names an
    unknown game, or names a rules file that is missing or holds other content than it did when the
    certificate was written; otherwise a report, whose finding names the position where the proof fails.

    ``progress`` is called with (positions checked, positions in the file) now and then. `rules_file` is where
    the rules file of a game loaded from a file is now (by default the path the header gives); it must hold
    what it held when the certificate was written. `workers` processes share the check of each part of at
    least :data:`SHARED_LEAST` positions (see :func:`_check_shared`). `game`: the game itself, for a certificate of a
    game that no name loads (one declared through the Python API, or after the first in its file), checked in this
    process alone; its name must be the header's. `every_image`: whether each image of each position is checked too
    (see :class:`_PartChecker`); by default for a game from a user's file, whose declared symmetries no test of
    gameproof's checks, and not for a built-in game, whose symmetries the test suite checks against its rules."""
    start = time.perf_counter()
    with CertificateReader(path) as reader:
        header = reader.header
        shareable = game is None  # other processes load the game by its name
        if game is None:
            game = _game(path, header, rules_file)
        elif game.name != header.game:
            raise BadInput(f"certificate {path}: of {header.game!r}, not of {game.name}")
        every_image = not is_builtin(game.spec) if every_image is None else every_image
        words = game.words
        if header.words != words:
            raise BadInput(f"certificate {path}: records of {header.words} words, but a {game.name} position has {words}")
        if header.threshold is not None and not game.has_score:
            raise BadInput(f"certificate {path}: a score threshold, but {game.name} declares no score")
        played = " ".join(RulesState(game).move_name(move) for move in header.moves)
        report = Report(path, header, game.spec.player_names, game.name, played)
        if header.played != played:
            report.finding = Finding(f"the header says the moves played are {_quoted(header.played)}, but its moves "
                                     f"are {_quoted(played)}")
            return report
        root = _replay(game, header)
        if isinstance(root, Finding):
            report.finding = root
            return report
        report.to_move = root[1]
        report.position = None if header.position is None else format_position(game, *header.position)
        checker = _PartChecker(game, root, header.no_move, every_image, header.threshold)
        before = 0  # positions checked in the earlier parts
        for index, (part, records) in enumerate(reader.parts(), start=1):
            part_start = time.perf_counter()
            part_report = PartReport(part)
            report.parts.append(part_report)

            def tick(checked: int, before: int = before, nodes: int = part.nodes) -> None:
                if progress is not None:
                    progress(before + checked, before + nodes)

            if workers > 1 and part.nodes >= SHARED_LEAST and shareable:
                report.finding = _check_shared(path, rules_file, index, part, part_report, workers, every_image, tick)
            else:
                report.finding = checker.check(index, part, records, part_report, tick=tick)
            part_report.seconds = time.perf_counter() - part_start
            before += part_report.checked
            if report.finding is not None:
                break
    if report.finding is None:
        report.value, report.finding = _value(header, report.to_move, [p.part for p in report.parts], report.names)
    report.seconds = time.perf_counter() - start
    return report


def _check_shared(path: str, rules_file: str | None, index: int, part: Part, report: PartReport, workers: int,
                  every_image: bool, tick: Callable[[int], None]) -> Finding | None:
    """Part number `index` checked by `workers` processes, each its own stretch of the records (see
    :func:`shares`): a process first reads the keys of the records before its stretch -- the positions that
    the check of those records accepts -- so each record is held to exactly what the check of the whole
    part in one process holds it to, and the part passes when every stretch does. The finding of the
    earliest stretch that has one is the part's; the others stop once it is known."""
    stretches = shares(part.nodes, workers)
    context = multiprocessing.get_context("spawn")
    counts = [context.Value("q", 0, lock=False) for _ in stretches]
    workers_at: list[tuple[Any, Any]] = []  # each stretch's process and the end of the pipe it answers on
    try:
        for (first, last), count in zip(stretches, counts):
            answers, answer = context.Pipe(duplex=False)
            process = context.Process(target=_check_stretch, daemon=True, name=f"gameproof-check-{first}",
                                      args=(os.getpid(), path, rules_file, index, first, last, every_image, count,
                                            answer))
            with ctrl_c_held():  # Ctrl-C reaches this process only (once it knows the process), which stops it
                process.start()
                workers_at.append((process, answers))
                answer.close()
        finding = None
        for process, answers in workers_at:  # in stretch order: the earliest finding is the part's
            while not answers.poll(_POLL_SECONDS):
                tick(sum(count.value for count in counts))
            try:
                outcome = answers.recv()
            except EOFError:
                process.join()
                raise RunFailed(f"a process checking {path} stopped without an answer (exit code "
                                   f"{process.exitcode})") from None
            if isinstance(outcome, str):
                raise BadInput(outcome)
            if outcome is not None:
                finding = outcome
                break
        report.checked = sum(count.value for count in counts)
    finally:
        for process, answers in workers_at:
            process.kill()
            process.join()
            answers.close()
    return finding


def shares(nodes: int, workers: int) -> list[tuple[int, int]]:
    """The stretches of records (after the first `first`, up to the `last`th) that `workers` processes check,
    sized so that each takes about as long: a later stretch is shorter, since its process also reads the
    keys of all the records before it (about :data:`_KEY_COST` of a record's check each)."""
    workers = max(1, min(workers, nodes))
    keep = 1 - _KEY_COST
    span = nodes * _KEY_COST / (1 - keep**workers)  # each process's time, in records checked
    stretches, first = [], 0
    for number in range(workers):
        last = nodes if number == workers - 1 else min(nodes, round(span + first * keep))
        stretches.append((first, last))
        first = last
    return [(first, last) for first, last in stretches if last > first]


def _check_stretch(driver: int, path: str, rules_file: str | None, index: int, first: int, last: int,
                   every_image: bool, count: Any, answer: Any) -> None:
    """In a process of :func:`_check_shared` (started by the process `driver`, and ending with it): sends the
    finding on the records after the `first`, up to the `last`th, of part number `index` (None if there is
    none; a line, if the file cannot be read); keeps the count of records checked in `count`."""
    die_with_driver(driver)

    def tick(checked: int) -> None:
        count.value = checked

    try:
        with CertificateReader(path) as reader:
            root = _replay(game := _game(path, reader.header, rules_file), reader.header)
            if isinstance(root, Finding):  # the file changed since the main process read it
                answer.send(root)
                return
            checker = _PartChecker(game, root, reader.header.no_move, every_image, reader.header.threshold)
            for at, (part, records) in enumerate(reader.parts(), start=1):
                if at == index:
                    report = PartReport(part)
                    finding = checker.check(index, part, records, report, first, min(last, part.nodes), tick)
                    tick(report.checked)
                    answer.send(finding)
                    return
            answer.send(f"certificate {path}: it has no part {index}")
    except BadInput as error:
        answer.send(str(error))


def _game(path: str, header: Header, rules_file: str | None = None) -> Game:
    """The certificate's game from the registry: by its name, or from the rules file the header names (at
    `rules_file`, else by its path as given, with the game's parameters) once the file's content has the hash
    the header gives."""
    if header.rules_file is None:
        if header.game.partition(":")[0].strip().endswith(".py"):
            raise BadInput(f"certificate {path}: names the game file {header.game!r} without its rules_file and "
                           "rules_sha256")
        if rules_file is not None:
            raise BadInput(f"certificate {path}: its game {header.game} is built in, not loaded from a rules file")
        return load_game(header.game)
    rules = header.rules_file
    where = rules.path if rules_file is None else rules_file
    try:
        digest = file_sha256(where)
    except BadInput as error:
        hint = " (give its place with --rules FILE)" if rules_file is None else ""
        raise BadInput(f"certificate {path}: {error}{hint}") from None
    if digest != rules.sha256:
        raise BadInput(f"certificate {path}: the rules file changed since the certificate was written ({where!r} "
                       f"has sha256 {digest}, not {rules.sha256})")
    parameters = header.game.partition(":")[2]
    game = load_game(f"{where}:{parameters}" if parameters else where)
    if game.name != header.game:
        raise BadInput(f"certificate {path}: the rules file {where!r} declares {game.name}, not {header.game!r}")
    return game


class _Rules:
    """The game's rule functions on Python ints, taking positions as words and a side to move, and moves as
    codes (:mod:`gameproof.framework.moves`)."""

    def __init__(self, game: Game) -> None:
        self.game, self.functions, self.arguments = game, game.rules, game.arguments
        self.passing = game.pass_move
        self.has_pass = callable(getattr(game.rules, "pass_turn", None))
        # The rules take the words alone, and a move as its one cell's bit (what RuleArguments.of gives then).
        self.plain = game.codes.parts == 1 and game.layer_words == 1 and not game.spec.turn_argument

    def legal(self, words: tuple[int, ...], to_move: int, cells: tuple[int, ...] = (), part: int = 0) -> int:
        """The cells of part `part` of the legal moves after the parts `cells` (0: the first parts)."""
        name = "legal" if part == 0 else f"legal_{self.game.spec.parts[part]}"
        mask = self.arguments.mask(getattr(self.functions, name)(*self.arguments.of(words, to_move, cells)))
        if mask is None:
            raise BadInput(f"{self.game.name}: {name}() returns no mask of cells")
        return mask

    def moves(self, words: tuple[int, ...], to_move: int) -> list[int]:
        """The codes of the legal moves (none where the side to move must pass or the game is over)."""
        codes = self.game.codes
        first = self.legal(words, to_move)
        if codes.parts == 1:  # a move's code is its one cell
            return list(bits_of(first))
        later = lambda index, earlier: self.legal(words, to_move, earlier, index)  # noqa: E731
        return [codes.encode(cells) for cells in complete_moves(first, later, codes)]

    def play(self, words: tuple[int, ...], to_move: int, move: int) -> tuple[int, ...]:
        """The position after `move` (a code, or the pass)."""
        if move == self.passing:
            return tuple(self.functions.pass_turn(*self.arguments.of(words, to_move)))
        if self.plain:
            return tuple(self.functions.play(*words, 1 << move))
        return tuple(self.functions.play(*self.arguments.of(words, to_move, self.game.codes.decode(move))))

    def result(self, words: tuple[int, ...], to_move: int) -> int:
        return self.functions.result(*self.arguments.of(words, to_move))

    def side_after(self, child: tuple[int, ...], to_move: int) -> int:
        """Who moves at `child`, reached by a move of `to_move`'s: what the rules' ``to_move`` says where the game
        has one (a side other than 0 or 1 is an error of the rules), else the other side."""
        if not self.game.has_turns:
            return 1 - to_move
        side = self.functions.to_move(*child)
        if side not in (0, 1) or isinstance(side, bool):
            raise BadInput(f"{self.game.name}: to_move() gives {side!r:.40}, not 0 or 1")
        return side

    def against(self, words: tuple[int, ...], to_move: int, threshold: int) -> int:
        """The result (WIN, LOSS or DRAW) for `to_move` of the finished game `words` as a score question counts it:
        the first player wins when its score is above `threshold`, draws at it and loses below."""
        score = self.functions.score(*self.arguments.of(words, to_move))
        if type(score) is not int and not hasattr(score, "__index__"):
            raise BadInput(f"{self.game.name}: score() gives {score!r:.40}, not a whole number")
        first = int(score) if to_move == 0 else -int(score)
        if first == threshold:
            return DRAW
        return WIN if (first > threshold) == (to_move == 0) else LOSS


def _replay(game: Game, header: Header) -> tuple[tuple[int, ...], int] | Finding:
    """The root: the header's moves played from its position, else from the start (words, side to move), or what is
    wrong with them."""
    rules = _Rules(game)
    words, to_move = header.position or (tuple(game.rules.start()), 0)
    if (problem := position_problem(game, words, to_move)) is not None:
        return Finding(f"the header's position is none of {game.name}'s: {problem}")
    for number, move in enumerate(header.moves, start=1):
        moves = rules.moves(words, to_move)
        if move in moves or (not moves and move == rules.passing and rules.result(words, to_move) == ONGOING
                             and rules.has_pass):
            words = rules.play(words, to_move, move)
            to_move = rules.side_after(words, to_move)
        else:
            return Finding(f"the root's move {number} (move number {move}) is not legal there", board=_drawn(game, words, to_move),
                           position=_line(game, words, to_move))
    if not rules.legal(words, to_move) and rules.result(words, to_move) != ONGOING:
        return Finding("the game is over at the root: there is no value to prove", board=_drawn(game, words, to_move),
                       position=_line(game, words, to_move))
    return words, to_move


class _PartChecker:
    """Checks parts record by record against the game's rules; with `every_image`, also each image of each position
    (so that no declared symmetry is trusted: a key stands for every image)."""

    def __init__(self, game: Game, root: tuple[tuple[int, ...], int], no_move: int, every_image: bool,
                 threshold: int | None = None) -> None:
        self.game, self.images, self.no_move = game, Images(game), no_move
        self.every_image, self.threshold = every_image, threshold
        self.root_key = self.images.key(*root)
        # where a side has won whatever is played, verified here (a certificate may stop there): not for a score
        self.won = won_verifier(game) if threshold is None else None

    def check(self, index: int, part: Part, records: Iterator[tuple[int, ...]], report: PartReport, start: int = 0,
              stop: int | None = None, tick: Callable[[int], None] = lambda checked: None) -> Finding | None:
        """The first thing wrong with the records after the first `start` and up to the `stop`th (by default the
        last) of part number `index` (None if there is none; the part proves its claim when these are all of
        its records). The first `start` records, checked elsewhere, are taken as accepted. Counts into
        `report.checked`; `tick` is told the count now and then."""
        stop = part.nodes if stop is None else stop
        rules = _Rules(self.game)
        key, image_move, named = self.images.key, self.images.move, self.images.named
        others = self.images.others if self.every_image else lambda words: ()
        claimant, draw_ok = part.claimant, part.goal is Goal.DRAW
        threshold, after, won = self.threshold, rules.side_after, self.won
        size = self.game.words
        proven = ProvenKeys()
        names = self.game.spec.player_names

        def flaw(child: tuple[int, ...], to_move: int) -> str | None:
            """What is wrong with a position a move leads to (`to_move` to play there), or None."""
            if key(child, to_move) in proven:  # accepted earlier, so unfinished (a finished one never is)
                return None
            if rules.legal(child, to_move) or (status := rules.result(child, to_move)) == ONGOING:
                if won is not None and won(child, claimant):
                    return None
                return "a position that is not in the certificate before this one"
            if threshold is not None and status in (WIN, LOSS, DRAW):
                status = rules.against(child, to_move, threshold)
            if status == DRAW:
                return None if draw_ok else "a draw, but a win is claimed"
            if status not in (WIN, LOSS):
                return f"a finished game whose result {status!r} is none of the rules' results"
            if (status == WIN) == (to_move == claimant):
                return None
            return f"a finished game that {names[claimant]} loses"

        def problem_at(words: tuple[int, ...], to_move: int, move: int, image: bool = False) -> str | None:
            """What is wrong with a record, or None. At an `image` of a record's position, the claimant's `move` is
            the image of the record's, tried first; where a symmetry names moves otherwise (a domino by its lower
            cell), any move of the claimant's to an accepted position will do."""
            moves = rules.moves(words, to_move)
            if not moves:
                if rules.result(words, to_move) != ONGOING:
                    return "the game is over here, so there is nothing to prove"
                if not rules.has_pass:
                    return "no legal move, and the game has no passes"
                moves = [rules.passing]
            if to_move == claimant:
                if image:
                    tried = sorted(moves, key=lambda other: other != move)  # the image of the chosen move first
                    if any(flaw(child := rules.play(words, to_move, other), after(child, to_move)) is None
                           for other in tried):
                        return None
                    return f"no move of {names[claimant]}'s leads to a position accepted earlier or a good end"
                if move not in moves:
                    return f"the chosen move {self._move_name(move)} is not legal"
                child = rules.play(words, to_move, move)
                reason = flaw(child, after(child, to_move))
                return None if reason is None else f"the chosen move {self._move_name(move)} leads to {reason}"
            if move != self.no_move:
                return f"{names[claimant]}'s opponent is to move, but the record chooses a move ({move})"
            for reply in moves:
                child = rules.play(words, to_move, reply)
                if (reason := flaw(child, after(child, to_move))) is not None:
                    if reply == rules.passing:
                        return f"the forced pass leads to {reason}"
                    return f"the reply {self._move_name(reply)} leads to {reason}"
            return None

        for number, record in enumerate(records, start=1):
            if number <= start:  # checked elsewhere: only its key, for the records that follow
                proven.add(key(record[:size], record[size]))
                continue
            if number > stop:
                return None
            report.checked = number - start
            words, to_move, move = record[:size], record[size], record[size + 1]
            if to_move > 1:
                return Finding(f"part {index}, position {number:,}: the side to move is {to_move}, not 0 or 1",
                               part=index, node=number)
            problem = problem_at(words, to_move, move)
            if problem is not None:
                return self._finding(index, part, number, words, to_move, problem)
            for symmetry, image in others(words):  # the position's key stands for these too: each must hold
                problem = problem_at(image, to_move, move if to_move != claimant else image_move(symmetry, move), True)
                if problem is not None:
                    return self._finding(index, part, number, image, to_move, f"{named(symmetry)} fails here, at the "
                                         f"image of the position the record gives: {problem}")
            proven.add(key(words, to_move))
            if number % _PROGRESS_EVERY == 0:
                tick(number - start)
        if stop < part.nodes:
            return None
        if self.root_key not in proven:
            return Finding(f"part {index}: the root is not among its positions", part=index)
        return None

    def _move_name(self, move: int) -> str:
        return RulesState(self.game).move_name(move)

    def _finding(self, index: int, part: Part, number: int, words: tuple[int, ...], to_move: int, problem: str) -> Finding:
        names = self.game.spec.player_names
        claim = f"{names[part.claimant]} {'wins' if part.goal is Goal.WIN else 'at least draws'}"
        return Finding(f"part {index} ({claim}), position {number:,} of {part.nodes:,}, {names[to_move]} to move: {problem}",
                       part=index, node=number, board=_drawn(self.game, words, to_move),
                       position=_line(self.game, words, to_move))


def _quoted(text: str, most: int = 80) -> str:
    """`text` from a file, quoted with its control characters escaped (repr), cut to about `most` characters."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "…"


def _drawn(game: Game, words: tuple[int, ...], to_move: int) -> str:
    return str(RulesState.at(game, words, to_move))


def _line(game: Game, words: tuple[int, ...], to_move: int) -> str:
    return f"{RulesState.at(game, words, to_move).marks()} {game.spec.player_names[to_move]} to move"


def _value(header: Header, to_move: int | None, parts: list[Part], names: tuple[str, str]) -> tuple[Value | None, Finding | None]:
    """The value for the side to move at the root that the accepted parts prove, or a finding when they prove
    none, or one other than the claimed value."""
    low, high = 0, 2  # bounds on the value, as indices of _ORDER
    for part in parts:
        mine = part.claimant == to_move
        if part.goal is Goal.WIN:
            low, high = (2, high) if mine else (low, 0)
        elif mine:
            low = max(low, 1)
        else:
            high = min(high, 1)
    if low != high:
        return None, Finding(f"the parts prove only that the value for {names[to_move]} (to move) is between "
                             f"{_ORDER[low].value} and {_ORDER[high].value}; {header.value.value} is claimed")
    value = _ORDER[low]
    if value is not header.value:
        return value, Finding(f"the certificate claims {header.value.value} for {names[to_move]} (to move), "
                              f"but its parts prove {value.value}")
    return value, None
