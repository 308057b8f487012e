"""A small policy-gradient agent trained on the base game with the PettingZoo
environment, against a uniformly random opponent; it ends up beating it.

    python crates/python/examples/train_reinforce.py --games 3000 \
        --svg docs/python-learning-curve.svg

The policy is a softmax over the legal actions of a linear score of a few
features of each action, computed from the action's codec index and the
observation (so it learns from the environment's API alone, no engine
internals): pass, a follower on each of the 16 places (the place tells a
field from a road, city or monastery), a placement, each also weighted by
the agent's followers left. Trained with REINFORCE and a running-mean
baseline on the win/loss return; NumPy only. Every ``--every`` games the
greedy policy (highest score) plays ``--eval`` games against random, seats
alternating, and the win rate goes into the learning curve.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field

import numpy as np

from bastide.pettingzoo import raw_env

# Codec layout (docs/openspiel.md): 0 pass, 1..32 followers (16 places on
# each of up to two cells), then placements.
N_PLACES = 16
N_FEATURES = 2 * (1 + N_PLACES + 1)  # (pass, places, placement) x (1, supply)
# globals (docs/openspiel.md, "Globals"): the phase one-hot (6), then the
# scores (one per relative seat), then the followers in supply per relative
# seat, the observer's own first. tests/test_examples.py checks this offset
# against a real game's supply, so a change of layout fails there.
PLAYERS = 2
PHASES = 6
SUPPLY_AT = PHASES + PLAYERS


def action_features(actions: np.ndarray, glob: np.ndarray) -> np.ndarray:
    """One feature row per legal action."""
    kind = np.where(actions == 0, 0, np.where(actions < 33, 1 + (actions - 1) % N_PLACES, 17))
    base = np.zeros((len(actions), N_FEATURES // 2), np.float64)
    base[np.arange(len(actions)), kind] = 1.0
    supply = float(glob[SUPPLY_AT])  # own followers left / followers per player
    return np.concatenate([base, base * supply], axis=1)


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


@dataclass
class Curve:
    games: list[int] = field(default_factory=list)
    win_rate: list[float] = field(default_factory=list)


def play(
    env: raw_env,
    theta: np.ndarray,
    seed: int,
    learner_seat: int,
    rng: np.random.Generator,
    greedy: bool,
) -> tuple[float, list[tuple[np.ndarray, int]]]:
    """One game, the learner at ``learner_seat`` and random elsewhere.
    Returns the learner's return and its (features, chosen row) steps."""
    env.reset(seed=seed)
    me = env.possible_agents[learner_seat]
    steps: list[tuple[np.ndarray, int]] = []
    final = 0.0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if agent == me:
                final = float(reward)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if agent != me:
            env.step(int(rng.choice(legal)))
            continue
        feats = action_features(legal, obs["globals"])
        probs = softmax(feats @ theta)
        i = int(probs.argmax()) if greedy else int(rng.choice(len(legal), p=probs))
        steps.append((feats, i))
        env.step(int(legal[i]))
    return final, steps


def evaluate(env: raw_env, theta: np.ndarray, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        r, _ = play(env, theta, seed + g, g % 2, rng, greedy=True)
        wins += 1.0 if r > 0 else (0.5 if r == 0 else 0.0)
    return wins / games


def train(
    games: int, every: int, eval_games: int, lr: float, seed: int
) -> tuple[np.ndarray, Curve]:
    """Trains for ``games`` games; returns the weights and the learning curve."""
    env = raw_env(sets="base", players=PLAYERS, radius=20)
    rng = np.random.default_rng(seed)
    theta = np.zeros(N_FEATURES)
    baseline = 0.0
    curve = Curve()
    for g in range(games + 1):
        if g % every == 0:
            curve.games.append(g)
            curve.win_rate.append(evaluate(env, theta, eval_games, 10**6 + g))
            print(
                f"games {g:>6}: greedy policy wins {curve.win_rate[-1]:.0%} against random",
                flush=True,
            )
        if g == games:
            break
        ret, steps = play(env, theta, seed * 10**6 + g, g % 2, rng, greedy=False)
        advantage = ret - baseline
        baseline += 0.02 * (ret - baseline)
        grad = np.zeros_like(theta)
        for feats, i in steps:
            probs = softmax(feats @ theta)
            grad += feats[i] - probs @ feats
        theta += lr * advantage * grad / max(1, len(steps))
    return theta, curve


def svg_curve(curve: Curve, path: str) -> None:
    """The learning curve as a small SVG line chart (no plotting library)."""
    w, h, m = 480, 260, 40
    xmax = max(curve.games) or 1

    def xy(g: int, r: float) -> tuple[float, float]:
        return m + (w - 2 * m) * g / xmax, h - m - (h - 2 * m) * r

    pts = " ".join(
        f"{x:.1f},{y:.1f}" for x, y in (xy(g, r) for g, r in zip(curve.games, curve.win_rate))
    )
    x0, y50 = xy(0, 0.5)
    x1, _ = xy(xmax, 0.5)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"'
        ' font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
        f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
        f'<line x1="{x0}" y1="{y50}" x2="{x1}" y2="{y50}" stroke="grey" stroke-dasharray="4"/>',
        f'<text x="{m - 30}" y="{m + 4}">100%</text><text x="{m - 24}" y="{y50 + 4}">50%</text>',
        f'<text x="{m - 18}" y="{h - m + 4}">0%</text>',
        f'<text x="{m}" y="{h - m + 18}">0</text>',
        f'<text x="{w - m - 20}" y="{h - m + 18}">{xmax}</text>',
        f'<text x="{w / 2 - 80}" y="{h - 8}">training games (base game, 2 players)</text>',
        f'<text x="{m}" y="{m - 12}">win rate of the greedy policy against random</text>',
        f'<polyline points="{pts}" fill="none" stroke="#c0392b" stroke-width="2"/>',
        "</svg>",
    ]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--every", type=int, default=250)
    ap.add_argument("--eval", type=int, default=100, dest="eval_games")
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--svg", help="write the learning curve here")
    ap.add_argument("--json", help="write the curve and weights here")
    a = ap.parse_args()
    theta, curve = train(a.games, a.every, a.eval_games, a.lr, a.seed)
    if a.svg:
        svg_curve(curve, a.svg)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(
                {"games": curve.games, "win_rate": curve.win_rate, "theta": theta.tolist()},
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
