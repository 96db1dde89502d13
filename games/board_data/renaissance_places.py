"""Where the Renaissance board's places are: the 59 cities' real positions, and the few extra
points that decide which land belongs to which province (or to no province).

Standard library only; read by games/board/renaissance_map.py. Latitude and longitude in degrees
(WGS84), rounded to about a kilometre: common knowledge of where these towns stand, as any atlas
or encyclopaedia gives it. Names are board.json's (games/renaissance/data/board.json); where its
name is not the town's modern one, the comment says which place is meant (docs/renaissance/map.md).
"""

CITY_COORDINATES: dict[str, tuple[float, float]] = {
    "Torino": (45.070, 7.686),
    "Nizza": (43.704, 7.266),  # Nice
    "Saluzzo": (44.645, 7.493),
    "Casale": (45.134, 8.452),  # Casale Monferrato
    "Milano": (45.464, 9.190),
    "Pavia": (45.185, 9.156),
    "Como": (45.808, 9.085),
    "Bergamo": (45.698, 9.677),
    # The Swiss Confederation, drawn at Lucerne, where its Diet most often met.
    "Confederazione svizzera": (47.050, 8.309),
    "Trento": (46.067, 11.121),
    "Venezia": (45.438, 12.336),
    "Padova": (45.407, 11.876),
    "Verona": (45.438, 10.992),
    "Brescia": (45.541, 10.212),
    "Treviso": (45.666, 12.243),
    "Udine": (46.063, 13.235),
    "Mantova": (45.156, 10.791),
    "Piacenza": (45.052, 9.693),
    "Parma": (44.801, 10.328),
    "Ferrara": (44.838, 11.620),
    "Modena": (44.647, 10.925),
    "Bologna": (44.494, 11.343),
    "Ravenna": (44.418, 12.204),
    "Rimini": (44.060, 12.566),
    "Urbino": (43.726, 12.636),
    "Pesaro": (43.910, 12.913),
    "Ancona": (43.616, 13.519),
    "Ascoli": (42.854, 13.575),  # Ascoli Piceno
    "Perugia": (43.112, 12.389),
    "Spoleto": (42.734, 12.739),
    "Genova": (44.407, 8.934),
    "Savona": (44.309, 8.477),
    "La Spezia": (44.102, 9.824),
    "Lucca": (43.843, 10.505),
    "Firenze": (43.770, 11.256),
    "Pistoia": (43.933, 10.917),
    "Pisa": (43.716, 10.402),
    "Livorno": (43.548, 10.311),
    "Siena": (43.318, 11.331),
    "Grosseto": (42.760, 11.114),
    "Piombino": (42.925, 10.526),
    "Roma": (41.893, 12.483),
    "Viterbo": (42.417, 12.105),
    "Terracina": (41.286, 13.249),
    "Anagni": (41.744, 13.158),
    "Napoli": (40.852, 14.268),
    "Capua": (41.106, 14.213),
    "L'Aquila": (42.350, 13.399),
    "Benevento": (41.130, 14.782),
    "Potenza": (40.640, 15.806),
    "Reggio": (38.111, 15.647),  # Reggio Calabria (the province is Calabria Puglia)
    "Cosenza": (39.298, 16.254),
    "Bari": (41.117, 16.872),
    "Palermo": (38.116, 13.361),
    "Messina": (38.193, 15.554),
    "Ajaccio": (41.919, 8.738),
    "Bastia": (42.697, 9.451),
    "Zara": (44.119, 15.231),  # Zadar
    "Ragusa": (42.650, 18.094),  # Dubrovnik (the Republic of Ragusa), not Ragusa in Sicily
}

# The land a seed may take (see renaissance_map.land_owner): a piece of land goes to the
# nearest seed of its country's group, so a border between countries stays where it is (Nice's
# county ends at the French border of today, Ticino stays Swiss). Countries of no group (Austria,
# Slovenia, Bosnia...) are outside the game. Seeds stand in Italy unless CITY_GROUP says otherwise.
GROUP_OF_COUNTRY: dict[str, str] = {
    "Italy": "Italy",
    "San Marino": "Italy",
    "Vatican": "Italy",
    "France": "France",
    "Monaco": "France",
    "Switzerland": "Switzerland",
    "Liechtenstein": "Switzerland",
    "Croatia": "Croatia",
}

CITY_GROUP: dict[str, str] = {
    "Nizza": "France",
    "Ajaccio": "France",
    "Bastia": "France",
    "Confederazione svizzera": "Switzerland",
    "Zara": "Croatia",
    "Ragusa": "Croatia",
}

# Extra seeds sharing out the land with the cities, each (latitude, longitude, owner, group): a
# province's seed stretches it over land it held where none of its cities stands; owner None
# keeps the land out of the game.
HELPER_SEEDS: tuple[tuple[float, float, str | None, str], ...] = (
    # Savoy held Cuneo and the Alpine valleys west of the marquisate of Saluzzo: Torino reaches
    # Nizza round Saluzzo's west, while Monferrato's Alba joins Saluzzo to Casale in the east.
    (44.390, 7.548, "Ducato di Savoia", "Italy"),  # Cuneo
    (44.200, 7.580, "Ducato di Savoia", "Italy"),  # Limone, under the Col de Tende
    (44.600, 7.050, "Ducato di Savoia", "Italy"),  # the upper Varaita and Maira valleys
    (44.700, 8.035, "Marchesato di Saluzzo e di Monferrato", "Italy"),  # Alba
    # Novara and the Lomellina were Milan's: the duchy reaches the Sesia.
    (45.446, 8.622, "Ducato di Milano", "Italy"),  # Novara
    # Lucca's republic ran up the Serchio valley towards the Apennines.
    (44.020, 10.450, "Repubblica di Lucca", "Italy"),  # Borgo a Mozzano and Barga
    # Sardinia (Aragonese, not on the board) and the islands round it are outside.
    (41.000, 9.300, None, "Italy"),
    (40.300, 9.300, None, "Italy"),
    (39.300, 9.000, None, "Italy"),
    (40.600, 8.500, None, "Italy"),
    # Provence and Dauphiné are France; the county of Nice is Savoy's.
    (43.550, 7.010, None, "France"),  # Cannes
    (43.540, 6.460, None, "France"),  # Draguignan
    (44.090, 6.240, None, "France"),  # Digne
    (44.390, 6.650, None, "France"),  # Barcelonnette
    (44.900, 6.640, None, "France"),  # Briançon
    (45.200, 6.670, None, "France"),  # Modane
    (45.570, 5.920, None, "France"),  # Chambéry
    # Dalmatia is the coast from Zadar to Dubrovnik; Istria and the inland are outside.
    (43.508, 16.440, "Dalmazia", "Croatia"),  # Split
    (44.870, 13.850, None, "Croatia"),  # Pula
    (45.330, 14.440, None, "Croatia"),  # Rijeka
    (44.550, 15.370, None, "Croatia"),  # Gospić
    (45.490, 15.550, None, "Croatia"),  # Karlovac
    (45.810, 15.980, None, "Croatia"),  # Zagreb
    (45.500, 17.500, None, "Croatia"),  # Slavonia
)
