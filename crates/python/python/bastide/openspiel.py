"""Bastide registered with OpenSpiel's Python API (``pyspiel``).

Importing this module registers the game ``python_bastide``:

>>> import pyspiel, bastide.openspiel
>>> game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base"})
>>> state = game.new_initial_state()   # a chance node: the first draw

Chance nodes are the Half-and-half deal, a map's second start tile, the
draws and Map Chips' chips: a chance outcome is a tile kind (its catalog
index) or a chip (after the tiles; ``Game.chance_ids`` names each index),
with probability its count among what chance draws from now (the part of
the pile drawn now, the halves not dealt, the chip supply); a tile that
fits nowhere is discarded and chance acts again. The game never reads
its seeded pile. Player actions are the engine codec's indices
(``Game.legal_actions``). Returns are the engine's zero-sum win/loss
returns, at the end only.

Parameters: ``players`` (2–6), ``sets`` (``"base"``, ``"winter+gingerbread"``
…: ``+`` separates the sets, since OpenSpiel's game strings separate
parameters by commas; a comma is still read, and the game string is
written with ``+`` so it loads again), ``seed`` (kept in the game string:
every deal, draw and chip being a chance node, no outcome depends on it), ``radius`` (the
action and observation window, default
30), ``action_mode`` (``"codec"``: action ids are codec indices;
``"legal"``: id ``i`` is the ``i``-th legal action, of at most
``max_legal``, default 4096; ``"auto"``, the default: codec unless the
Plague's flights make the codec's space larger than 2²⁰ ids).

The observation tensor is the engine's (``Game.observation``): the cell
planes flattened, then the globals; at a chance node the drawn tile is not
shown. OpenSpiel's own MCTS searches the state it is given: it samples the
draws at chance nodes, so it never sees the pile order, but with
Half-and-half it does see the other players' hands.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

import bastide
from bastide._config import action_mode_for

__all__ = ["GAME_NAME", "BastideGame", "BastideState", "BastideObserver", "PlayerAction"]

#: The name to give ``pyspiel.load_game``.
GAME_NAME = "python_bastide"

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "sets": "base",
    "seed": 0,
    "radius": 30,
    "action_mode": "auto",
    "max_legal": 4096,
    # Rule options (notation.md), `+`-separated as the sets are: a bare name
    # is true, `name:value` takes a JSON value ("river_shuffle_all+followers:6";
    # not `=` or `,`, which OpenSpiel's game string uses).
    "options": "",
}


def parse_options(text: str) -> dict[str, Any]:
    """The rule options of the OpenSpiel parameter ``options``: ``a+b:3``
    is ``{"a": True, "b": 3}``; a value that is not JSON is a string."""
    out: dict[str, Any] = {}
    for item in (x.strip() for x in text.split("+")):
        if not item:
            continue
        name, eq, value = item.partition(":")
        if not eq:
            out[name.strip()] = True
            continue
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value.strip()
    return out


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Bastide (Carcassonne)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# OpenSpiel numbers actions with 32-bit ints in places.
_MAX_ACTIONS = 2**31 - 1


class BastideGame(pyspiel.Game):
    """The game: its parameters fix the sets, players, seed and window."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        # The game string separates parameters by commas: the sets are
        # written with `+`, so that `load_game(str(game))` is this game.
        p["sets"] = "+".join(s.strip() for s in str(p["sets"]).replace(",", "+").split("+"))
        self._kwargs: dict[str, Any] = {
            "sets": str(p["sets"]),
            "players": int(p["players"]),
            "seed": int(p["seed"]),
            "radius": int(p["radius"]),
        }
        options = parse_options(str(p["options"]))
        if options:
            self._kwargs["options"] = options
        probe = bastide.Game(**self._kwargs, explicit_chance=True)
        mode = str(p["action_mode"])
        mode = action_mode_for(probe.num_actions, None if mode == "auto" else mode, _MAX_ACTIONS)
        max_legal = int(p["max_legal"])
        if not 1 <= max_legal <= 1 << 16:
            raise ValueError(f"max_legal must be from 1 to 65536, not {max_legal}")
        #: ``"codec"``: actions are codec indices; ``"legal"``: action ``i`` is
        #: the ``i``-th legal action in codec order (at most ``max_legal``).
        self.action_mode = mode
        n_actions = probe.num_actions if mode == "codec" else max_legal
        n = probe.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions,
            max_chance_outcomes=probe.num_chance_outcomes,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # The engine's bound: per tile a draw, a placement, the follower
            # step and what the expansions add to a turn.
            max_game_length=probe.max_game_length,
        )
        super().__init__(_GAME_TYPE, info, p)
        self._probe = probe
        cells, glob = probe.observation_shape
        #: The information-state tensor: the observation, then one row of
        #: ``n + 4`` values a history entry, ``max_game_length`` rows.
        self.info_rows = probe.max_game_length
        self.observation_size = int(np.prod(cells)) + glob[0]
        self.information_state_size = self.observation_size + self.info_rows * (n + 4)
        #: Whether any seat holds secret items (halves, chips): only then
        #: does a chance outcome's recipient need finding.
        self.secretive = bool(_secret_lists(probe.view(0), n))

    def new_initial_state(self) -> BastideState:
        """A new game at its first chance node (the first draw)."""
        return BastideState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BastideObserver:
        """The observer of the engine's observation tensor, or with
        ``perfect_recall`` the information state (string and tensor)."""
        if iig_obs_type is not None and getattr(iig_obs_type, "perfect_recall", False):
            return InfoStateObserver(self, params)
        private = getattr(iig_obs_type, "private_info", pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_bastide has no observer of every seat's private information: "
                "ask for SINGLE_PLAYER (a seat's view) or NONE (public only)"
            )
        if iig_obs_type is not None and private == pyspiel.PrivateInfoType.NONE:
            return BastideObserver(self._probe, params, public=True)
        return BastideObserver(self._probe, params)


class BastideState(pyspiel.State):
    """A position; chance nodes are the draws."""

    def __init__(self, game: BastideGame) -> None:
        super().__init__(game)
        self.game_state = bastide.Game(**game._kwargs, explicit_chance=True)
        self._legal_mode = game.action_mode == "legal"
        self._max_legal = game.num_distinct_actions()
        #: Each seat's recall (``information_state_string``), one entry a
        #: node; None until some information state is asked for, so play
        #: without them pays nothing.
        self._recall: list[list[str]] | None = None
        #: Each seat's history rows of the information-state tensor
        #: (``seats × max_game_length × (n + 4)``, see ``_step``), written
        #: as actions are applied; None until a tensor is asked for.
        self._steps: np.ndarray | None = None
        #: ``(player, action)`` of every action applied and not undone: the
        #: history. OpenSpiel's own (C++) list cannot be shortened from
        #: Python, so ``undo_action`` keeps the truth here and ``history``,
        #: ``full_history``, ``history_str`` and ``move_number`` read it.
        self._actions: list[tuple[int, int]] = []

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``
        (the engine's ``current_player`` uses OpenSpiel's numbers, checked
        at import)."""
        return self.game_state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.game_state.legal_actions()
        if self._legal_mode:
            return list(range(min(len(legal), self._max_legal)))
        return legal

    def _codec_index(self, action: int) -> int:
        """The codec index of an OpenSpiel action id. In "legal" mode an id
        is a position in the legal list, so one outside it (negative, past
        its end or past ``max_legal``) is refused here: a Python list would
        otherwise read -2 as the second-to-last legal action."""
        if self._legal_mode:
            legal = self.game_state.legal_actions()
            n = min(len(legal), self._max_legal)
            if not 0 <= action < n:
                raise bastide.IllegalAction(
                    f"action {action} is not legal here: in legal mode the ids are "
                    f"0 to {n - 1} (the legal actions in codec order)"
                )
            return legal[action]
        return action

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(tile index, probability)`` of the next draw."""
        return self.game_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        g = self.game_state
        actor = g.current_player
        node = (self.current_player(), int(action))
        secretive = self._steps is not None and self._secretive()
        held = _hidden_counts(g) if secretive and g.is_chance else None
        act = None
        index = -1
        if g.is_chance:
            g.apply_chance(int(action))
        else:
            index = self._codec_index(int(action))
            # The record form, for the information states only: play that
            # never asks for one does not pay for it.
            if self._recall is not None or secretive:
                act = json.dumps(g.action_to_json(index), sort_keys=True)
            g.apply(index)
        self._actions.append(node)
        if self._recall is not None:
            for seat, entries in enumerate(self._recall):
                entries.append(_recall_entry(g, seat, actor, act))
        if self._steps is not None:
            k = len(self._actions) - 1
            if k < self._steps.shape[1]:
                # Without secret items a codec index names an action in
                # every seat's eyes; with them (a hand's slots) the record
                # form does.
                entry = _step(g, actor, int(action), act if secretive else index, held)
                _write_row(self._steps[:, k], *entry)

    def _secretive(self) -> bool:
        return bool(self.get_game().secretive)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {self.game_state.chance_ids[action]}"
        return str(self.game_state.action_to_json(self._codec_index(int(action))))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.game_state.is_terminal

    def returns(self) -> list[float]:
        """Zero-sum win/loss returns (zeros while the game runs)."""
        return self.game_state.returns()

    def information_state_string(self, player: int | None = None) -> str:
        """Everything ``player`` (default: the seat to act) has seen, in
        order: what it saw at the start and after every step of the
        history (its own halves and chips, never another seat's or the
        pile's order). Two histories give the same string exactly when the
        seat cannot tell them apart by what it saw."""
        seat = self.current_player() if player is None else int(player)
        n = self.game_state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, not {player}")
        if self._recall is None:
            self._recall = _replayed_recall(self.get_game(), self.history())
        return "\n".join([*self._recall[seat], _board_text(self.game_state, seat)])

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """``player``'s information state as one flat NumPy ``float32``
        array of fixed size (``game.information_state_size``): the seat's
        observation now (``observation_tensor``), then one row a history
        entry, ``max_game_length`` rows, unused rows zero. A row is
        ``[1, chance, seat one-hot (n, relative to player), value, hidden]``:
        a player action (every one is public) has its codec index + 1 over
        the codec's size, or, where seats hold secret items (a hand's slots
        number the codec), a 24-bit digest of its record form; a chance
        outcome has its index + 1 over ``max_chance_outcomes``, unless it dealt another seat a
        half or a chip: then the value is 0 and ``hidden`` is 1. Two
        histories the seat cannot tell apart give the same tensor."""
        seat = self.current_player() if player is None else int(player)
        n = self.game_state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, not {player}")
        game = self.get_game()
        if self._steps is None:
            self._steps = _replayed_steps(game, self.history())
        out = self.game_state.observation_flat(seat, extra=game.info_rows * (n + 4))
        out[game.observation_size :] = self._steps[seat].ravel()
        return out

    def history(self) -> list[int]:
        """The actions applied and not undone, chance outcomes included."""
        return [a for _, a in self._actions]

    def full_history(self) -> list[PlayerAction]:
        """``history()`` with the player (or chance, -1) of each action."""
        return [PlayerAction(p, a) for p, a in self._actions]

    def history_str(self) -> str:
        """``history()`` as OpenSpiel writes it: ids joined by ``", "``."""
        return ", ".join(str(a) for _, a in self._actions)

    def move_number(self) -> int:
        """The number of actions applied and not undone."""
        return len(self._actions)

    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last action, which must be ``action`` by ``player``
        (chance: -1), as OpenSpiel's games do. The engine has no undo: the
        history without its last action is replayed (linear in the game's
        length; in a search, ``clone()`` before applying is cheaper)."""
        if not self._actions or self._actions[-1] != (int(player), int(action)):
            last = self._actions[-1] if self._actions else None
            raise ValueError(
                f"undo_action({player}, {action}) is not the last action: "
                + ("nothing was applied" if last is None else f"the last was {last}")
            )
        replay = _replayed(self.get_game(), self.history()[:-1])
        if self._steps is not None and len(self._actions) <= self._steps.shape[1]:
            self._steps[:, len(self._actions) - 1] = 0.0
        self.game_state = replay.game_state
        self._actions.pop()
        if self._recall is not None:
            for entries in self._recall:
                entries.pop()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BastideState:
        """A state consistent with everything ``player_id`` knows, the
        hidden part resampled: the engine's determinization (the other
        seats' face-down halves and chips; the draws being chance nodes, no
        pile order is kept), seeded by one call of ``probability_sampler``
        (a uniform number in [0, 1)). Its ``history()`` is a history of the
        resampled hands: the chance outcomes that dealt another seat a half
        or a chip it still holds give the resampled one (the latest such
        outcomes, so every half or chip it played was dealt before it was
        played), and the player actions are the same actions by their
        record form; replaying it rebuilds the returned state."""
        if self.game_state.is_terminal:
            return self.clone()
        seat = int(player_id)
        n = self.game_state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"player_id must be a seat from 0 to {n - 1}, not {player_id}")
        seed = int(float(probability_sampler()) * 2**63) % 2**63
        if not self._secretive():
            # Nothing is held in secret, and the draws are chance nodes: the
            # state is the only one consistent with what the seat knows.
            return self.clone()
        resampled = self.game_state.determinize(seat, seed)
        return _rewritten(self, seat, _hidden(self.game_state), _hidden(resampled))

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """What ``player`` (default: the seat to act) sees, as one flat
        NumPy ``float32`` array (cells, then globals), filled in place by
        the engine. OpenSpiel's default would turn the observer's tensor
        into a Python list of ~127,000 floats each call (3.4 ms, most of an
        ``rl_environment`` step); agents take an array as they take a list."""
        seat = self.current_player() if player is None else int(player)
        n = self.game_state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, not {player}")
        return self.game_state.observation_flat(seat)

    def __str__(self) -> str:
        """The full state: the public board, then each seat's own part of
        what it alone sees (its halves, its chips), so that two states that
        differ only in a hand print differently."""
        return _board_text(self.game_state, None) + _private_text(self.game_state)


class BastideObserver:
    """The engine's observation tensor for OpenSpiel (PyObserver interface):
    ``tensor`` holds the cell planes flattened, then the globals; ``dict``
    has the views ``cells`` (planes × W × W) and ``globals``.

    ``public=True`` is the public observer (``private_info=NONE``): only
    what every seat sees. The cell planes and the shared globals are public;
    the expansions' globals mix public counts with the seat's own halves and
    chips, so that share is left at zero (``Game.observation_flat(seat,
    public=True)``); the string has the public lines only."""

    def __init__(
        self, probe: bastide.Game, params: dict[str, Any] | None, public: bool = False
    ) -> None:
        self.public = public
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        cells, glob = probe.observation_shape
        size = int(np.prod(cells))
        self.tensor = np.zeros(size + glob[0], np.float32)
        self.dict = {
            "cells": self.tensor[:size].reshape(cells),
            "globals": self.tensor[size:],
        }

    def set_from(self, state: BastideState, player: int) -> None:
        """Fills ``tensor`` with what ``player`` sees in ``state`` (public
        observer: what every seat sees)."""
        self.tensor[:] = state.game_state.observation_flat(player, public=self.public)

    def string_from(self, state: BastideState, player: int) -> str:
        """What ``player`` sees, in a few lines: the step, scores, supplies
        and tiles left, the drawn tile, the board and the followers (all
        public: the public observer's string is the same lines, headed
        ``public``)."""
        text = _board_text(state.game_state, player)
        return text.replace(f"seat {player} sees: ", "public: ", 1) if self.public else text


class InfoStateObserver:
    """The perfect-recall observer (PyObserver interface): ``tensor`` is
    ``information_state_tensor``, ``dict`` its views ``observation`` and
    ``history`` (rows × ``n + 4``); the string ``information_state_string``."""

    def __init__(self, game: BastideGame, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(game.information_state_size, np.float32)
        self.dict: dict[str, np.ndarray] = {
            "observation": self.tensor[: game.observation_size],
            "history": self.tensor[game.observation_size :].reshape(
                game.info_rows, game.num_players() + 4
            ),
        }

    def set_from(self, state: BastideState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s information state."""
        self.tensor[:] = state.information_state_tensor(player)

    def string_from(self, state: BastideState, player: int) -> str:
        """``state.information_state_string(player)``."""
        return state.information_state_string(player)


def _recall_entry(g: bastide.Game, seat: int, actor: int, act: str | None) -> str:
    """What ``seat`` learnt at the node just reached, for its recall: who
    acted (its own action in full: it knows what it chose), then a digest
    of its whole view, the engine's statement of what a seat sees (public
    state, its own halves and chips, never another's or the pile's order).
    The digest keeps the string short (a view is kilobytes a node) while
    two histories give the same recall exactly when every view matched."""
    if actor < 0:
        who = "chance"
    elif actor == seat:
        who = f"me {act}"
    else:
        who = f"seat {actor}"
    view = json.dumps(g.view(seat), sort_keys=True, separators=(",", ":"))
    return f"{who} -> {hashlib.blake2b(view.encode(), digest_size=8).hexdigest()}"


class PlayerAction:
    """One entry of ``full_history()``: who acted (-1: chance) and the id."""

    __slots__ = ("player", "action")

    def __init__(self, player: int, action: int) -> None:
        self.player = player
        self.action = action

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerAction) and (self.player, self.action) == (
            other.player,
            other.action,
        )

    def __hash__(self) -> int:
        return hash((self.player, self.action))

    def __repr__(self) -> str:
        return f"PlayerAction(player={self.player}, action={self.action})"


def _replayed(game: pyspiel.Game, history: list[int]) -> BastideState:
    """A new state of ``game`` after ``history``."""
    s = game.new_initial_state()
    for action in history:
        s.apply_action(action)
    return s


def _hidden(g: bastide.Game) -> list[dict[str, list[str]]]:
    """Each seat's secret items by view key (its halves, its chips), as
    chance names them: found by comparing the seats' views (a seat's own
    list against the ``{"hidden": n}`` the others see), so no expansion is
    named here."""
    views = [g.view(seat) for seat in range(g.num_players)]
    out: list[dict[str, list[str]]] = [{} for _ in views]
    for key, _ in _secret_lists(views[0], len(views)):
        for seat, view in enumerate(views):
            v: Any = view
            for part in key.split("."):
                v = v[part]
            out[seat][key] = [_item_name(x) for x in v[seat]]
    return out


def _secret_lists(view: Any, n: int, at: str = "") -> list[tuple[str, list[Any]]]:
    """The lists in a seat's view (nested dicts too: ``chips.hands``) that
    hold one entry a seat, the others' shown as ``{"hidden": k}``: the
    secret hands, by dotted key."""
    found: list[tuple[str, list[Any]]] = []
    if not isinstance(view, dict):
        return found
    for key, value in view.items():
        path = f"{at}.{key}" if at else key
        if isinstance(value, dict):
            found.extend(_secret_lists(value, n, path))
        elif (
            isinstance(value, list)
            and len(value) == n
            and any(isinstance(x, dict) and set(x) == {"hidden"} for x in value)
        ):
            found.append((path, value))
    return found


def _item_name(item: Any) -> str:
    """A hidden item's chance name: a tile id, or a chip's ``colour:value``."""
    if isinstance(item, dict):
        return f"{item.get('colour')}:{item.get('value')}"
    return str(item)


def _rewritten(
    state: BastideState,
    seat: int,
    before: list[dict[str, list[str]]],
    after: list[dict[str, list[str]]],
) -> BastideState:
    """``state``'s history with the other seats' secret items ``before``
    replaced by ``after``, replayed into a new state. Two replays go in
    step: the real one reads who each chance outcome gave an item to and
    each player action's record form, the new one takes the rewritten
    outcomes and the same actions."""
    game = state.get_game()
    history = state.history()
    real = game.new_initial_state()
    # Which chance outcomes to rewrite: per seat and key, the latest ones
    # that gave an item the seat still holds, the held items matched last
    # first; each gets the next resampled item.
    gains: list[tuple[int, int, str]] = []  # (history index, seat, key)
    counts = [_hidden_counts(real.game_state)]
    for i, action in enumerate(history):
        chance = real.is_chance_node()
        real.apply_action(action)
        if chance:
            now = _hidden_counts(real.game_state)
            for (who, key), k in now.items():
                if who != seat and k > counts[-1].get((who, key), 0):
                    gains.append((i, who, key))
            counts.append(now)
    swap: dict[int, str] = {}
    for who in range(len(before)):
        if who == seat:
            continue
        for key, held in before[who].items():
            held = list(held)
            new = list(after[who].get(key, []))
            for i, w, k in reversed(gains):
                if w != who or k != key or not held or not new:
                    continue
                name = state.game_state.chance_ids[history[i]]
                if name in held:
                    held.remove(name)
                    swap[i] = new.pop()
    out = game.new_initial_state()
    real = game.new_initial_state()
    for i, action in enumerate(history):
        if real.is_chance_node():
            real.apply_action(action)
            ids = out.game_state.chance_ids
            out.apply_action(ids.index(swap[i]) if i in swap else action)
            continue
        form = real.game_state.action_to_json(real._codec_index(action))
        real.apply_action(action)
        index = out.game_state.json_to_action(form)
        out.apply_action(out.game_state.legal_actions().index(index) if out._legal_mode else index)
    return out


def _hidden_counts(g: bastide.Game) -> dict[tuple[int, str], int]:
    """How many secret items each seat holds, by view key (the sizes every
    seat sees)."""
    out: dict[tuple[int, str], int] = {}
    for key, per_seat in _secret_lists(g.view(0), g.num_players):
        for seat, items in enumerate(per_seat):
            out[(seat, key)] = items["hidden"] if isinstance(items, dict) else len(items)
    return out


def _step(
    g: bastide.Game, actor: int, action: int, act: str | int, held: dict | None
) -> tuple[int, float, int]:
    """A history entry for the information-state tensor, taken just after
    the action: ``(actor, value, recipient)``. A player action's value is
    its codec index + 1 over the codec's size (``act`` an int) or a 24-bit
    digest of its record form (``act`` a str); a chance outcome's, its
    index + 1 over the outcomes; ``recipient`` is the seat whose secret
    items the outcome added to (``held``: the counts before), or -1."""
    if isinstance(act, str):
        digest = int.from_bytes(hashlib.blake2b(act.encode(), digest_size=3).digest(), "big")
        return actor, (digest + 1) / float(1 << 24), -1
    if actor >= 0:
        return actor, (act + 1) / float(g.num_actions), -1
    recipient = -1
    if held is not None:
        for (seat, key), k in _hidden_counts(g).items():
            if k > held.get((seat, key), 0):
                recipient = seat
    return -1, (action + 1) / float(g.num_chance_outcomes), recipient


def _write_row(rows: np.ndarray, actor: int, value: float, recipient: int) -> None:
    """One history row of every seat's information-state tensor (``rows``:
    seats × ``n + 4``): ``[1, chance, acting seat one-hot relative to the
    seat, value, hidden]``; an outcome that gave another seat a secret item
    is hidden (value 0, hidden 1)."""
    n = rows.shape[0]
    rows[:, 0] = 1.0
    for seat in range(n):
        row = rows[seat]
        if actor < 0:
            row[1] = 1.0
        else:
            row[2 + (actor - seat) % n] = 1.0
        if 0 <= recipient != seat:
            row[n + 3] = 1.0
        else:
            row[n + 2] = value


def _replayed_steps(game: BastideGame, history: list[int]) -> np.ndarray:
    """The information-state tensor's entries of ``history``, replayed."""
    s = game.new_initial_state()
    n = game.num_players()
    s._steps = np.zeros((n, game.info_rows, n + 4), np.float32)
    for action in history:
        s.apply_action(action)
    return s._steps


def _replayed_recall(game: BastideGame, history: list[int]) -> list[list[str]]:
    """Every seat's recall of ``history``, replayed from the start."""
    s = game.new_initial_state()
    n = s.game_state.num_players
    s._recall = [[_recall_entry(s.game_state, seat, -1, None)] for seat in range(n)]
    for action in history:
        s.apply_action(action)
    return s._recall


def _dealing(g: bastide.Game) -> bool:
    """Whether chance deals Half-and-half halves now (not a draw)."""
    return any(g.chance_ids[t].startswith("halfsies") for t, _ in g.chance_outcomes())


def _board_text(g: bastide.Game, player: int | None) -> str:
    """A few lines: the node, scores, supplies and tiles left, the drawn
    tile, the pieces on the board (``tile@x,y/r``) and the followers, as
    ``player`` (or seat 0 for the state's string) sees them."""
    v = g.view(0 if player is None else player)
    if g.is_terminal:
        node = "game over"
    elif g.is_chance:
        node = "chance: the deal" if _dealing(g) else "chance: the draw"
    else:
        node = f"seat {g.current_player} to act, step {g.phase}"
    who = "" if player is None else f"seat {player} sees: "
    drawn = v.get("drawn")
    lines = [
        f"{who}{node}; move {g.move_number}",
        f"scores {v['scores']}, supplies {v['supply']}, tiles left {v['tiles_left']}"
        + (f", drawn {drawn}" if drawn else ""),
        "board: "
        + " ".join(
            f"{p['tile']}@{p['x']},{p['y']}/{p['rotation']}"
            + (f"{p['corner']}" if p.get("corner") else "")
            for p in v["board"]
        ),
    ]
    followers = v.get("followers") or []
    if followers:
        lines.append("followers: " + " ".join(_follower_text(f) for f in followers))
    return "\n".join(lines)


def _private_text(g: bastide.Game) -> str:
    """One line per seat of what that seat's view shows and seat 0's does
    not (or shows otherwise): the hidden parts, found by comparing views, so
    no expansion is named here."""
    views = [g.view(seat) for seat in range(g.num_players)]
    keys = sorted(
        k for k in views[0] if k != "seat" and any(v.get(k) != views[0][k] for v in views)
    )
    if not keys:
        return ""
    lines = [
        f"seat {seat} holds: " + json.dumps({k: v.get(k) for k in keys}, sort_keys=True)
        for seat, v in enumerate(views)
    ]
    return "\n" + "\n".join(lines)


def _follower_text(f: dict[str, Any]) -> str:
    at = f.get("x", "?"), f.get("y", "?")
    return f"p{f.get('seat', '?')}@{at[0]},{at[1]}{f.get('place', '')}"


# `BastideState.current_player` passes the engine's numbers on as they are.
if (bastide.CHANCE_PLAYER, bastide.TERMINAL_PLAYER) != (
    int(pyspiel.PlayerId.CHANCE),
    int(pyspiel.PlayerId.TERMINAL),
):
    raise ImportError("bastide's chance and terminal player ids differ from OpenSpiel's")

pyspiel.register_game(_GAME_TYPE, BastideGame)
