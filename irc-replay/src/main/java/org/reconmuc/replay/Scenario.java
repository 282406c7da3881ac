package org.reconmuc.replay;

import java.util.Locale;

/**
 * One scenario of a run: {@code standard} (the XMPP server's own MUC), {@code standard-mam} (the
 * same with the room archiving, so that it stamps a stanza-id on every message as ReConMUC does),
 * {@code off} (ReConMUC, every bot a standard occupant) or {@code relaxed} (ReConMUC, every bot
 * states requirements). On the command line a relaxed scenario may carry its own parameters:
 * {@code relaxed:volume=30:time=60:aggregate=deflate:draw=fixed}; missing ones come from the flags.
 *
 * @param fixedVolume every bot asks for {@code volume} (else each draws one from [1, 2 x volume])
 */
public record Scenario(Kind kind, int volume, int timeSeconds, String aggregation, boolean fixedVolume) {

    /** What a relaxed bot may ask for as its {@code <aggregation/>}. */
    static final java.util.List<String> AGGREGATIONS = java.util.List.of("none", "plain", "deflate", "compact",
            "compact-live", "compact-deflate", "compact-deflate-live");

    public enum Kind {
        STANDARD, STANDARD_MAM, OFF, RELAXED
    }

    public static Scenario parse(String spec, int defaultVolume, int defaultTime, String defaultAggregation) {
        return parse(spec, defaultVolume, defaultTime, defaultAggregation, false);
    }

    public static Scenario parse(String spec, int defaultVolume, int defaultTime, String defaultAggregation,
            boolean defaultFixedVolume) {
        String[] parts = spec.split(":");
        Kind kind = switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "standard" -> Kind.STANDARD;
            case "standard-mam" -> Kind.STANDARD_MAM;
            case "off" -> Kind.OFF;
            case "relaxed" -> Kind.RELAXED;
            default -> throw new IllegalArgumentException("unknown scenario '" + parts[0]
                    + "' (standard, standard-mam, off, relaxed)");
        };
        int volume = defaultVolume;
        int time = defaultTime;
        String aggregation = defaultAggregation;
        boolean fixedVolume = defaultFixedVolume;
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=", 2);
            if (kv.length != 2 || kind != Kind.RELAXED) {
                throw new IllegalArgumentException("bad scenario parameter '" + parts[i] + "' in '" + spec
                        + "' (only relaxed takes volume=, time=, aggregate=, draw=)");
            }
            switch (kv[0]) {
                case "volume", "v" -> volume = Integer.parseInt(kv[1]);
                case "time", "t" -> time = Integer.parseInt(kv[1]);
                case "aggregate", "aggregation", "a" -> aggregation = kv[1];
                case "draw" -> fixedVolume = switch (kv[1]) {
                    case "fixed" -> true;
                    case "uniform" -> false;
                    default -> throw new IllegalArgumentException("draw is fixed or uniform, not '" + kv[1] + "'");
                };
                default -> throw new IllegalArgumentException("unknown scenario parameter '" + kv[0] + "' in '" + spec + "'");
            }
        }
        String[] perWorld = aggregation.split("/", -1);
        if (perWorld.length > World.values().length) {
            throw new IllegalArgumentException("aggregate is one form, or one per world (A/B), not '" + aggregation + "'");
        }
        for (String form : perWorld) {
            if (!AGGREGATIONS.contains(form)) {
                throw new IllegalArgumentException("aggregate must be one of " + AGGREGATIONS + " (or A/B: one per world),"
                        + " not '" + aggregation + "'");
            }
        }
        if (volume < 1 || time < 1) {
            throw new IllegalArgumentException("volume and time must be >= 1");
        }
        return new Scenario(kind, volume, time, aggregation, fixedVolume);
    }

    /** The aggregation a bot of {@code world} asks for: {@code aggregate=plain/deflate} gives A plain, B deflate. */
    public String aggregationFor(World world) {
        String[] perWorld = aggregation.split("/");
        return perWorld[Math.min(world.ordinal(), perWorld.length - 1)];
    }

    public boolean usesComponent() {
        return kind == Kind.OFF || kind == Kind.RELAXED;
    }

    /** The room stamps an XEP-0359 stanza-id on each message, which replies then name (XEP-0461). */
    public boolean roomStampsStanzaIds() {
        return kind != Kind.STANDARD;
    }

    public boolean relaxed() {
        return kind == Kind.RELAXED;
    }

    /**
     * A name for folders and tables: {@code standard}, {@code standard-mam}, {@code off},
     * {@code relaxed-v10-t60-plain} ({@code -fixed} when every bot asks for the same volume).
     */
    public String label() {
        return switch (kind) {
            case STANDARD -> "standard";
            case STANDARD_MAM -> "standard-mam";
            case OFF -> "off";
            case RELAXED -> "relaxed-v" + volume + "-t" + timeSeconds + "-" + aggregation.replace('/', '+')
                    + (fixedVolume ? "-fixed" : "");
        };
    }
}
