"""Figures published in the sources, shared by the tests that reproduce them."""

# Hoyle 1790 pp. 239-240 (hazard-rules.md S1 and §3; Wikipedia's "Relative odds for auxiliary
# bets"): the odds paid to a caster backing his chance against the main, by main then chance;
# each is ways(main) : ways(chance).
HOYLE_ODDS = {
    5: {4: "4/3", 6: "4/5", 7: "2/3", 8: "4/5", 9: "1/1", 10: "4/3"},
    6: {4: "5/3", 5: "5/4", 7: "5/6", 8: "1/1", 9: "5/4", 10: "5/3"},
    7: {4: "2/1", 5: "3/2", 6: "6/5", 8: "6/5", 9: "3/2", 10: "2/1"},
    8: {4: "5/3", 5: "5/4", 6: "1/1", 7: "5/6", 9: "5/4", 10: "5/3"},
    9: {4: "4/3", 5: "1/1", 6: "4/5", 7: "2/3", 8: "4/5", 10: "4/3"},
}
