"""The optional rules, each switchable on its own."""

from dataclasses import asdict, dataclass, fields

DRAW_AFTER_BATTLE, BIGGER_KINGDOMS, CAPTURING_REGIONS, HIDDEN_CARDS = 1, 2, 4, 8


@dataclass(frozen=True)
class Options:
    """[rules] Optional rules: Draw After Battle, Bigger Kingdoms, Capturing Regions, Hidden
    Cards; each can be switched on independently."""

    draw_after_battle: bool = False
    bigger_kingdoms: bool = False
    capturing_regions: bool = False
    hidden_cards: bool = False

    def to_dict(self):
        return asdict(self)

    @classmethod
    def from_dict(cls, data):
        names = {field.name for field in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown options: {sorted(unknown)}")
        return cls(**{name: bool(value) for name, value in data.items()})

    def to_bits(self):
        return (
            DRAW_AFTER_BATTLE * self.draw_after_battle
            | BIGGER_KINGDOMS * self.bigger_kingdoms
            | CAPTURING_REGIONS * self.capturing_regions
            | HIDDEN_CARDS * self.hidden_cards
        )

    @classmethod
    def from_bits(cls, bits):
        return cls(
            draw_after_battle=bool(bits & DRAW_AFTER_BATTLE),
            bigger_kingdoms=bool(bits & BIGGER_KINGDOMS),
            capturing_regions=bool(bits & CAPTURING_REGIONS),
            hidden_cards=bool(bits & HIDDEN_CARDS),
        )
