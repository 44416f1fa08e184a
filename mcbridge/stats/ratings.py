"""Per-game ratings with openskill's Plackett-Luce model (multiplayer, ties, any table size).

[decided here] Bots are rated apart from people: a match's people are rated among the
people only (by their ranks relative to each other), its bots among the bots. A bot plays
the same policy every match, so rating it against people would let a farm of bot games
move people's numbers; kept apart, the bot board still shows how the policies compare.
A pool with fewer than two members in a match is not rated for that match.
The leaderboard orders by the ordinal (mu - 3 sigma): a new player starts at 0 and climbs
as the model grows sure, so one lucky win does not top the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(entries: list[tuple[Skill, int]]) -> list[Skill]:
    """New skills for (skill, rank) entries of one pool (rank 1 best, ties equal)."""
    if len(entries) < 2:
        return [skill for skill, _ in entries]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill, _ in entries]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in entries])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
