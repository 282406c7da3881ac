package org.reconmuc.smack.provider;

import java.io.IOException;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.parsing.SmackParsingException;
import org.jivesoftware.smack.provider.IQProvider;
import org.jivesoftware.smack.xml.XmlPullParser;
import org.jivesoftware.smack.xml.XmlPullParserException;
import org.reconmuc.smack.element.Aggregation;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.ConsistencyRequirementsIQ;
import org.reconmuc.smack.element.FilterEntry;
import org.reconmuc.smack.element.PresenceLevel;
import org.reconmuc.smack.element.PresencesElement;

/**
 * Parses {@code <consistency-requirements/>} (either namespace) into a
 * {@link ConsistencyRequirementsIQ}: what the spec's schema allows, and a parsing error naming
 * what it does not (an unknown child, a bound that is not a positive number, an unknown
 * aggregation, {@code <standard/>} beside anything else).
 */
public final class ConsistencyRequirementsIQProvider extends IQProvider<ConsistencyRequirementsIQ> {
    public static final ConsistencyRequirementsIQProvider INSTANCE = new ConsistencyRequirementsIQProvider();

    @Override
    public ConsistencyRequirementsIQ parse(XmlPullParser parser, int initialDepth, XmlEnvironment xmlEnvironment)
            throws XmlPullParserException, IOException, SmackParsingException {
        String namespace = parser.getNamespace();
        ConsistencyRequirements.Builder b = ConsistencyRequirements.builder();
        boolean standard = false;
        while (true) {
            XmlPullParser.Event event = parser.next();
            if (event == XmlPullParser.Event.END_ELEMENT && parser.getDepth() == initialDepth) {
                break;
            }
            if (event != XmlPullParser.Event.START_ELEMENT) {
                continue;
            }
            if (!namespace.equals(parser.getNamespace())) {
                throw new SmackParsingException("unknown element <" + parser.getName() + " xmlns='" + parser.getNamespace()
                        + "'/> in <" + ConsistencyRequirementsIQ.ELEMENT + "/>");
            }
            switch (parser.getName()) {
                case "filter" -> parseFilter(parser, b);
                case "time" -> b.setTimeSeconds(number(parser, "time"));
                case "volume" -> b.setVolume((int) Math.min(Integer.MAX_VALUE, number(parser, "volume")));
                case "aggregation" -> {
                    String text = parser.nextText().strip();
                    Aggregation a = Aggregation.fromValue(text);
                    if (a == null) {
                        throw new SmackParsingException("unknown aggregation '" + text + "'");
                    }
                    b.setAggregation(a);
                }
                case "standard" -> standard = true;
                case PresencesElement.ELEMENT -> {
                    String text = parser.getAttributeValue("", "level");
                    PresenceLevel level = PresencesElement.NAMESPACE.equals(namespace) ? PresenceLevel.fromValue(text) : null;
                    if (level == null) {
                        throw new SmackParsingException("<presences/> needs level all, moderators or none in "
                                + PresencesElement.NAMESPACE + ", not '" + text + "' in " + namespace);
                    }
                    b.setPresenceLevel(level);
                }
                default -> throw new SmackParsingException("unknown element <" + parser.getName() + "/> in <"
                        + ConsistencyRequirementsIQ.ELEMENT + "/>");
            }
        }
        ConsistencyRequirements parsed = b.build();
        if (standard && !parsed.isEmpty()) {
            throw new SmackParsingException("<standard/> stands alone in <" + ConsistencyRequirementsIQ.ELEMENT + "/>");
        }
        return new ConsistencyRequirementsIQ(namespace, standard ? ConsistencyRequirements.standard() : parsed);
    }

    private static void parseFilter(XmlPullParser parser, ConsistencyRequirements.Builder b)
            throws XmlPullParserException, IOException, SmackParsingException {
        int depth = parser.getDepth();
        b.withFilter();
        while (true) {
            XmlPullParser.Event event = parser.next();
            if (event == XmlPullParser.Event.END_ELEMENT && parser.getDepth() == depth) {
                return;
            }
            if (event != XmlPullParser.Event.START_ELEMENT) {
                continue;
            }
            if (!FilterEntry.ELEMENT.equals(parser.getName())) {
                throw new SmackParsingException("<filter/> holds only <filter-entry/>, not <" + parser.getName() + "/>");
            }
            FilterEntry.Kind kind = FilterEntry.Kind.fromAttribute(parser.getAttributeValue("", "element"));
            String value = parser.getAttributeValue("", "value");
            String active = parser.getAttributeValue("", "active");
            if (kind == null || value == null) {
                throw new SmackParsingException.RequiredAttributeMissingException("element (topic or nick) and value");
            }
            b.addFilterEntry(new FilterEntry(kind, value, active == null ? null : "true".equals(active) || "1".equals(active)));
        }
    }

    private static long number(XmlPullParser parser, String name) throws XmlPullParserException, IOException,
            SmackParsingException {
        String text = parser.nextText().strip();
        try {
            long n = Long.parseLong(text);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SmackParsingException("<" + name + "/> is not a positive whole number: '" + text + "'");
    }
}
