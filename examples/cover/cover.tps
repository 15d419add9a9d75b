-- The reference's example query (a grenade at the agent's feet): hidespots valid against the
-- target within 15 m, none nearer than 5 m, none the target can reach first; hard cover before
-- soft, the nearest first. The fallback: grid points 5 m away or more that the target cannot see.
query take_cover {
    option {
        Generation { hidespots_from_target_around_puppet = 15 }
        Conditions { min_distance_from_puppet = 5, canReachBefore_the_target = true }
        Weights    { hardCover = 1.0, distance_from_puppet = -1.0 }
    }
    option {
        Generation { grid_around_puppet = 10 }
        Conditions { min_distance_from_puppet = 5, visible_from_target = false }
        Weights    { distance_from_puppet = -1.0 }
    }
}

-- Brink's cover finding: the nearest point of a square around the agent that the target cannot
-- see. `tactica render` draws its record in docs/tps.md.
query hide_from_sniper {
    option {
        Generation { grid_around_puppet = 8 }
        Conditions { visible_from_target = false }
        Weights    { distance_from_puppet = -1.0 }
    }
}
