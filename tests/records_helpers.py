"""Random game records: random legal games of every game, played through the Game
interface, with take backs, comments and every way of ending."""

from __future__ import annotations

from hypothesis import strategies as st

from firmware_host.games import game_names, load_game
from firmware_host.games.base import Game, Side
from firmware_host.records import (
    ABANDONED,
    RESIGNATION,
    TIME,
    UNTERMINATED,
    Comment,
    Event,
    GameRecord,
    Played,
    TakeBack,
)

GAMES = {name: load_game(name) for name in game_names()}

# Printable text (a record holds nothing else): letters, marks, numbers, punctuation,
# symbols and the plain space.
_TEXT = st.text(
    st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S")) | st.just(" "), min_size=1, max_size=30
)
_TEXT = _TEXT.filter(str.isprintable)
_WORDS = _TEXT.map(lambda text: " ".join(text.replace("}", ")").split())).filter(
    lambda text: bool(text) and text not in ("taken back", "hint")
)
_TAG_VALUES = _TEXT.filter(lambda text: text != "?")


@st.composite
def records(draw: st.DrawFn, game: Game | None = None) -> GameRecord:
    """A record of a random legal game: from a lineup, or from a position some moves
    into one (the Position tag); with take backs, comments, moves after a hint, lenient
    moves, and a result
    the rules allow."""
    if game is None:
        game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    lineup = draw(st.sampled_from(game.lineups))
    position = game.start(lineup, draw(st.sampled_from(Side)))
    for _ in range(draw(st.integers(0, 6))):  # a game set up part way through
        legal = position.legal_moves()
        if not legal:
            break
        position.push(draw(st.sampled_from(legal)))
    start = game.read_position(position.to_text())
    position = start.copy()
    lenient = draw(st.booleans())
    events: list[Event] = []
    for _ in range(draw(st.integers(0, 60))):
        choice = draw(st.sampled_from(("move", "move", "move", "move", "take back", "comment")))
        if choice == "take back" and position.move_stack:
            position.pop()
            events.append(TakeBack())
        elif choice == "comment":
            events.append(Comment(draw(_WORDS)))
        else:
            moves = list(position.legal_moves()) + (list(position.lenient_moves()) if lenient else [])
            if not moves:
                break
            move = draw(st.sampled_from(moves))
            position.push(move, lenient=lenient)
            events.append(Played(move.to_text(), hinted=draw(st.booleans())))
    outcome = position.outcome()
    if outcome is not None:
        result, how = game.outcome_record(outcome)
        termination = how or "draw"
    else:
        result, termination = draw(
            st.sampled_from(
                [("*", UNTERMINATED), ("*", ABANDONED), ("red", RESIGNATION), ("blue", RESIGNATION), ("red", TIME)]
            )
        )
    tags = draw(
        st.lists(
            st.tuples(st.sampled_from(("Event", "Site", "Red", "Blue", "TimeControl", "Annotator")), _TAG_VALUES),
            unique_by=lambda pair: pair[0],
            max_size=6,
        )
    )
    return GameRecord(
        game=game.name,
        board=game.board.name,
        lineup=lineup,
        start_position=start.to_text(),
        started_at=draw(st.integers(0, 253_402_300_799)),  # to 9999-12-31 23:59:59
        result=result,
        termination=termination,
        events=tuple(events),
        number=draw(st.integers(1, 9)),
        lenient=lenient,
        tags=tuple(tags),
    )
