-- A post near the sniper, out of its sight behind the low wall, a little random: the points one
-- asker holds are rejected for the others.
query post {
    option {
        Generation { grid_around_puppet = 3 }
        Weights    { distance_from_target = -1.0, visible_from_target = -0.5, random = 0.3 }
    }
}

-- The nearest point by path to the target: through the gate once it opens.
query flank {
    option {
        Generation { grid_around_puppet = 3 }
        Weights    { pathDistance_from_target = -1.0, random = 0.1 }
    }
}
