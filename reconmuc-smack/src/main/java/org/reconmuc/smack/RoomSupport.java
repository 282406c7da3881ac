package org.reconmuc.smack;

/**
 * What a room's disco#info says about ReConMUC (reconmuc.md §7): whether it supports the protocol,
 * the limits of its {@code urn:reconmuc:0#limits} form (null where the room states none; see
 * §7 rule 2 for what an absent field means), and the batch forms it offers beyond the first
 * version's ({@code urn:reconmuc:0#compact}, {@code #compact-deflate}, {@code #compact-deflate-live},
 * {@code #compact-live}).
 */
public record RoomSupport(boolean supported, Integer historySize, Integer maxVolume, Integer maxTime,
        Integer maxFilterEntries, boolean compact, boolean compactDeflate, boolean compactDeflateLive, boolean compactLive) {

    /** A room without the feature. */
    public static final RoomSupport UNSUPPORTED = new RoomSupport(false, null, null, null, null, false, false, false, false);

    /** The largest volume the room accepts: max-volume, else history-size, else null. */
    public Integer largestVolume() {
        return maxVolume != null ? maxVolume : historySize;
    }

    /** The largest time bound in seconds the room accepts: max-time, else the spec's 86400. */
    public int largestTime() {
        return maxTime != null ? maxTime : 86_400;
    }
}
