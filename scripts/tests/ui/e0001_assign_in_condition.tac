if (PlayerChallenge = DIFFICULT) {
    DoFlee();
}
