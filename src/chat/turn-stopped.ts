/** Ends the current turn quietly: the reason has already been shown. */
export class TurnStopped extends Error {}
