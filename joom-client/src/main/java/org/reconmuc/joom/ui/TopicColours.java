package org.reconmuc.joom.ui;

import java.awt.Color;

/** The colour of each topic, by the order topics appear: distinct hues that read on white. */
final class TopicColours {
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
        new Color(0x17becf), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22),
    };
    private static final Color NONE = new Color(0xc8c8c8);

    private TopicColours() {
    }

    /** The colour of the topic with this index (-1: no topic). */
    static Color of(int index) {
        return index < 0 ? NONE : PALETTE[index % PALETTE.length];
    }

    /** A pale tint of the colour, for backgrounds. */
    static Color tint(Color c, float amount) {
        return new Color(mix(c.getRed(), amount), mix(c.getGreen(), amount), mix(c.getBlue(), amount));
    }

    private static int mix(int channel, float amount) {
        return Math.round(255 - (255 - channel) * amount);
    }
}
