package org.reconmuc.replay;

import java.util.List;
import java.util.Locale;

/**
 * The two settings the bandwidth claims are made in (DESIGN.md, "Where the bandwidth saving really
 * comes from"): world A, where the server compresses each client's stream (XEP-0138, as in the
 * paper), and world B, where nothing does (XEP-0138 is off by default today). A run may hold bots
 * of both worlds in one room (even bots A, odd bots B): the same room, the same load, counted apart.
 */
enum World {
    A(true, "XEP-0138 zlib stream compression"),
    B(false, "no stream compression");

    final boolean streamCompression;
    final String what;

    World(boolean streamCompression, String what) {
        this.streamCompression = streamCompression;
        this.what = what;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code a}, {@code b} or {@code ab}. */
    static List<World> parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "a" -> List.of(A);
            case "b" -> List.of(B);
            case "ab" -> List.of(A, B);
            default -> throw new IllegalArgumentException("--worlds is a, b or ab");
        };
    }

    /** The world of a bot: with both worlds, every other bot (so speakers and listeners split evenly). */
    static World of(int botIndex, List<World> worlds) {
        return worlds.get(botIndex % worlds.size());
    }
}
