"""Mausgeflippt's cards (docs/rules/mausgeflippt.md): the 26 clothing faces, the 32 mice with
what each wears and the cheese it wants, and the 9 cheeses; the rules, the events and the views
all spell cards with these words."""

from __future__ import annotations

KINDS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("trousers", ("blue", "brown")),
    ("tie", ("blue", "yellow")),
    ("belt", ("brown", "green")),
    ("shoes", ("yellow", "blue")),
    ("dress", ("red", "yellow")),
    ("jacket", ("red", "green")),
    ("tshirt", ("blue", "red")),
    ("sneakers", ("red", "green")),
    ("blazer", ("red", "blue")),
    ("bag", ("brown", "yellow")),
    ("ring", ("yellow", "green")),
    ("shirt", ("green", "blue")),
    ("cap", ("brown", "red")),
)
FACES: tuple[str, ...] = tuple(f"{kind}-{colour}" for kind, colours in KINDS for colour in colours)
FACE_ID: dict[str, int] = {face: i for i, face in enumerate(FACES)}
NFACES = len(FACES)
THIRD_COPIES = ("trousers-blue", "tie-yellow", "dress-red", "shoes-blue", "tshirt-blue", "sneakers-red")
# Unshuffled clothing: every face twice (three times for the six above), in table order.
CLOTHING_DECK: tuple[str, ...] = tuple(face for face in FACES for _ in range(3 if face in THIRD_COPIES else 2))

CHEESES: tuple[str, ...] = (
    "emmental", "gouda", "brie", "camembert", "cheddar", "edam", "tilsiter", "parmesan", "roquefort",
)  # fmt: skip
CHEESE_ID: dict[str, int] = {c: i for i, c in enumerate(CHEESES)}

_MOUSE_TABLE = """
m01 belt-brown blazer-blue dress-red emmental
m02 belt-green blazer-red trousers-brown edam
m03 blazer-red cap-red tshirt-blue camembert
m04 shirt-green sneakers-red tie-yellow gouda
m05 blazer-blue ring-yellow shoes-yellow parmesan
m06 blazer-red shoes-yellow sneakers-green emmental
m07 blazer-blue tie-blue trousers-blue brie
m08 bag-yellow shirt-green shoes-blue roquefort
m09 bag-brown shoes-yellow tshirt-red brie
m10 bag-yellow dress-red tie-blue tilsiter
m11 bag-yellow trousers-blue tshirt-red camembert
m12 belt-green jacket-red ring-green camembert
m13 bag-brown ring-green tie-yellow cheddar
m14 cap-red jacket-green shirt-blue parmesan
m15 jacket-green ring-yellow tie-yellow gouda
m16 blazer-red ring-green sneakers-red cheddar
m17 bag-yellow sneakers-green tie-yellow brie
m18 blazer-blue cap-brown tshirt-blue brie
m19 shirt-green sneakers-green trousers-brown parmesan
m20 dress-yellow jacket-green trousers-blue gouda
m21 cap-brown dress-red sneakers-green camembert
m22 bag-brown belt-brown tshirt-blue roquefort
m23 dress-yellow trousers-brown tshirt-blue cheddar
m24 bag-brown shirt-blue shoes-blue edam
m25 belt-brown ring-green shirt-blue roquefort
m26 belt-green ring-yellow shoes-blue emmental
m27 belt-brown cap-red dress-yellow tilsiter
m28 cap-red jacket-red shoes-yellow edam
m29 jacket-red ring-yellow tie-blue cheddar
m30 dress-red shirt-blue sneakers-red emmental
m31 dress-yellow shoes-blue tshirt-red tilsiter
m32 cap-brown jacket-red sneakers-red gouda
"""
_rows = [line.split() for line in _MOUSE_TABLE.strip().splitlines()]
MICE: tuple[str, ...] = tuple(row[0] for row in _rows)
MOUSE_ID: dict[str, int] = {m: i for i, m in enumerate(MICE)}
MOUSE_WEARS: tuple[tuple[str, str, str], ...] = tuple((row[1], row[2], row[3]) for row in _rows)
MOUSE_MASK: tuple[int, ...] = tuple(sum(1 << FACE_ID[f] for f in row[1:4]) for row in _rows)
MOUSE_CHEESE: tuple[int, ...] = tuple(CHEESE_ID[row[4]] for row in _rows)
del _rows

FULL_DECK: tuple[str, ...] = CLOTHING_DECK + MICE + CHEESES
N_CLOTHING, N_MICE, N_CHEESES = len(CLOTHING_DECK), len(MICE), len(CHEESES)  # 58, 32, 9
MAX_CARDS_DEALT = N_CLOTHING
