-- Where the guard takes cover: the nearest point of a square around it that the sniper (the
-- player, the query's default target) cannot see.
query hide_from_player {
    option {
        Generation { grid_around_puppet = 8 }
        Conditions { visible_from_target = false }
        Weights    { distance_from_puppet = -1.0 }
    }
}
