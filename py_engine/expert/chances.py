"""How often the player to move went on to win a two-player round of hard against hard, by
the two rack sizes: the leaf of the expert's rollouts, and one of its choice's features.
"""

from __future__ import annotations

# By [their tiles][the other's tiles] (each capped at 14): 3,000 rounds, every turn once
# both had opened, thin cells shrunk towards 0.5 + 0.06 per tile of difference.
# Made by benchmarks/expert_eval.py, which prints it.
_WIN_CHANCE = (  # in thousandths
    (500, 560, 620, 680, 740, 800, 860, 920, 950, 950, 950, 950, 950, 950, 950),
    (440, 618, 579, 704, 759, 789, 785, 809, 802, 907, 853, 913, 960, 950, 952),
    (380, 490, 507, 623, 675, 716, 722, 763, 771, 781, 848, 854, 886, 966, 917),
    (320, 369, 428, 500, 591, 618, 648, 659, 719, 715, 663, 762, 778, 767, 968),
    (260, 287, 355, 433, 500, 561, 595, 621, 610, 674, 655, 671, 732, 717, 778),
    (200, 253, 337, 385, 450, 502, 555, 576, 596, 574, 630, 617, 665, 720, 720),
    (140, 207, 300, 381, 431, 458, 495, 534, 561, 566, 567, 606, 654, 700, 688),
    (80, 202, 278, 337, 404, 423, 469, 509, 499, 553, 578, 563, 605, 650, 609),
    (50, 129, 238, 345, 366, 442, 464, 486, 509, 506, 543, 525, 526, 592, 619),
    (50, 244, 214, 313, 389, 395, 445, 479, 480, 494, 515, 556, 533, 538, 604),
    (50, 132, 229, 247, 364, 407, 422, 458, 480, 481, 500, 490, 537, 561, 585),
    (50, 121, 203, 268, 339, 399, 407, 432, 474, 502, 492, 518, 511, 553, 536),
    (50, 50, 73, 289, 379, 358, 326, 403, 452, 473, 480, 473, 501, 525, 530),
    (50, 43, 143, 226, 298, 345, 341, 375, 395, 438, 451, 463, 510, 476, 531),
    (50, 43, 31, 125, 269, 320, 347, 370, 403, 402, 431, 459, 492, 502, 500),
)


def _win_chance(mover: int, other: int) -> float:
    """The chance that the player to move, holding ``mover`` tiles against ``other``, wins
    a two-player round between greedy players (``_WIN_CHANCE``)."""
    cap = len(_WIN_CHANCE) - 1
    return _WIN_CHANCE[min(mover, cap)][min(other, cap)] / 1000
