"""The board: 17 regions and exactly the 34 borders of rulings.md, and victory by a chain."""

from games.engine import ADJACENCY, REGIONS, is_terminal, winners

from .helpers import choose, play, run, start

RULINGS_REGIONS = (
    "Torino", "Milano", "Venezia", "Genova", "Mantova", "Ferrara", "Parma", "Modena", "Bologna",
    "Lucca", "Firenze", "Siena", "Urbino", "Ancona", "Spoleto", "Roma", "Napoli",
)  # fmt: skip

# The table of rulings.md, verbatim.
RULINGS_BORDERS = {
    "Ancona": ("Napoli", "Spoleto", "Urbino"),
    "Bologna": ("Ferrara", "Firenze", "Modena", "Urbino"),
    "Ferrara": ("Bologna", "Mantova", "Modena", "Venezia"),
    "Firenze": ("Bologna", "Lucca", "Modena", "Roma", "Siena", "Spoleto", "Urbino"),
    "Genova": ("Milano", "Parma", "Torino"),
    "Lucca": ("Firenze", "Modena", "Parma"),
    "Mantova": ("Ferrara", "Milano", "Modena", "Venezia"),
    "Milano": ("Genova", "Mantova", "Modena", "Parma", "Torino", "Venezia"),
    "Modena": ("Bologna", "Ferrara", "Firenze", "Lucca", "Mantova", "Milano", "Parma"),
    "Napoli": ("Ancona", "Roma", "Spoleto"),
    "Parma": ("Genova", "Lucca", "Milano", "Modena"),
    "Roma": ("Firenze", "Napoli", "Siena", "Spoleto"),
    "Siena": ("Firenze", "Roma"),
    "Spoleto": ("Ancona", "Firenze", "Napoli", "Roma", "Urbino"),
    "Torino": ("Genova", "Milano"),
    "Urbino": ("Ancona", "Bologna", "Firenze", "Spoleto"),
    "Venezia": ("Ferrara", "Mantova", "Milano"),
}

NOT_BORDERS = (
    ("Genova", "Modena"), ("Lucca", "Siena"), ("Siena", "Spoleto"), ("Mantova", "Parma"),
    ("Bologna", "Lucca"), ("Urbino", "Roma"), ("Ancona", "Roma"), ("Venezia", "Modena"),
)  # fmt: skip


def _borders(adjacency):
    return {frozenset((a, b)) for a, neighbours in adjacency.items() for b in neighbours}


def test_seventeen_regions_in_the_rulings_order():
    assert tuple(REGIONS) == RULINGS_REGIONS
    assert set(ADJACENCY) == set(REGIONS)


def test_adjacency_is_symmetric_and_irreflexive():
    for region, neighbours in ADJACENCY.items():
        assert isinstance(neighbours, frozenset)
        assert region not in neighbours
        for other in neighbours:
            assert region in ADJACENCY[other], f"{region}–{other} is one-way"


def test_exactly_the_34_borders_of_the_rulings():
    assert len(_borders(RULINGS_BORDERS)) == 34
    assert _borders(ADJACENCY) == _borders(RULINGS_BORDERS)
    assert {r: set(n) for r, n in ADJACENCY.items()} == {
        r: set(n) for r, n in RULINGS_BORDERS.items()
    }


def test_the_listed_non_borders_are_absent():
    for a, b in NOT_BORDERS:
        assert b not in ADJACENCY[a] and a not in ADJACENCY[b], f"{a}–{b} is not a border"


def test_winning_lucca_with_genova_and_parma_is_a_chain_of_3_with_4_players():
    """Genova–Parma–Lucca is connected (Genova and Lucca do not touch): 3 adjacent wins."""
    assert "Lucca" not in ADJACENCY["Genova"]
    hands = [["m10"], ["m1"], [], []]
    state = start(4, hands, owners={"Genova": 0, "Parma": 0})
    state = run(state, (0, choose("Lucca")), (0, play("m10")), (1, play("m1")))
    assert is_terminal(state)
    assert winners(state) == [0]


def test_the_same_chain_does_not_win_with_3_players():
    hands = [["m10"], ["m1"], []]
    state = start(3, hands, owners={"Genova": 0, "Parma": 0})
    state = run(state, (0, choose("Lucca")), (0, play("m10")), (1, play("m1")))
    assert not is_terminal(state)
    assert winners(state) == []
