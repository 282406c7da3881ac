package org.reconmuc.component.muc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;

/**
 * One room option, all of it in one place (the model is Prosody's MUC, one file per feature): its
 * field in the owner's {@code muc#roomconfig} form (label, type, parsing, default), which is also
 * its persisted name, since a persistent room is stored as its rendered form; its disco#info
 * features and {@code muc#roominfo} fields; the refusals it adds to the room's one access rule
 * ({@link RoomAccess}); and what the room does when an owner changes it.
 *
 * <p>Every hook but {@link #read} and {@link #render} does nothing unless the option says
 * otherwise. An option is a singleton, one of XEP-0045's listed in {@link RoomOptions} or a feature of its
 * own (one line of the service's features, after them); its value lives in
 * {@link RoomConfig}.
 *
 * @param <T> the value's type; values are immutable and compared with {@code equals}
 */
public abstract class RoomOption<T> implements RoomFeature {
    /** The form field's {@code var}: the option's name on the wire and in the store. */
    public final String var;
    public final String label;
    private final T byDefault;

    RoomOption(String var, String label, T byDefault) {
        this.var = var;
        this.label = label;
        this.byDefault = byDefault;
    }

    /** The value of a new room. */
    T defaultValue(RoomConfig.Limits limits) {
        return byDefault;
    }

    /**
     * The value a submitted form asks for: {@code current} when the form leaves the option out.
     * Throws IllegalArgumentException naming the field when the value is not acceptable.
     */
    abstract T read(Map<String, List<String>> submitted, T current, RoomConfig.Limits limits);

    /** Adds the option's field(s), showing {@code value}, to the owner's form. */
    abstract void render(Element form, T value, RoomConfig.Limits limits);

    /** A stored value brought within the service's limits of today (they may have shrunk since). */
    T withinLimits(T value, RoomConfig.Limits limits) {
        return value;
    }

    /** Adds what disco#info tells of the option: features to {@code query}, fields to the {@code muc#roominfo} form. */
    public void describe(RoomConfig config, Element query, Element roomInfo) {
    }

    /** Why the option refuses {@code asking} what it asks, or null if it does not stand in the way. */
    RoomAccess.Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        return null;
    }

    /** Status codes the option adds to an entering occupant's own presence (XEP-0045 §7.2.2). */
    public void addEntryCodes(T value, Set<Integer> codes) {
    }

    /**
     * {@code after} as the submission that changed this option from {@code before} leaves it: an
     * option may change others with it (a room made members-only leaves the public list).
     */
    RoomConfig settle(RoomConfig before, RoomConfig after) {
        return after;
    }

    /** Status codes, besides 104, that tell the occupants of the change (XEP-0045 §10.2.1). */
    public void addChangeCodes(T before, T after, Set<Integer> codes) {
    }

    /**
     * An invitation from {@code inviter} to {@code invitee} is going out (XEP-0045 §7.8.2): the
     * option may add to its {@code <x xmlns='http://jabber.org/protocol/muc#user'/>}, or act on it.
     */
    public void inviting(Room room, Occupant inviter, RealJid invitee, Element x) {
    }

    /**
     * Attaches what the option changes in the room's behaviour beyond the hooks above to the
     * events rooms fire ({@link org.reconmuc.component.muc.RoomEvent}): nothing unless the
     * option says so.
     */
    @Override
    public void attach(RoomEvents events) {
    }

    /** What the room does once the owner's change is in place and announced. */
    public void changed(Room room, T before, T after) {
    }

    final boolean differs(RoomConfig before, RoomConfig after) {
        return !Objects.equals(before.get(this), after.get(this));
    }

    public final void addEntryCodes(RoomConfig config, Set<Integer> codes) {
        addEntryCodes(config.get(this), codes);
    }

    public final void addChangeCodes(RoomConfig before, RoomConfig after, Set<Integer> codes) {
        if (differs(before, after)) {
            addChangeCodes(before.get(this), after.get(this), codes);
        }
    }

    public final void changed(Room room, RoomConfig before, RoomConfig after) {
        if (differs(before, after)) {
            changed(room, before.get(this), after.get(this));
        }
    }

    // ---- data form helpers ----------------------------------------------------------------------

    /** The first value submitted for {@code var}, trimmed ("" for a field without values), or null if not submitted. */
    static String text(Map<String, List<String>> submitted, String var) {
        List<String> vs = submitted.get(var);
        if (vs == null) {
            return null;
        }
        return vs.isEmpty() ? "" : vs.get(0).trim();
    }

    /** The boolean submitted for {@code var}, or null if not submitted. */
    static Boolean bool(Map<String, List<String>> submitted, String var) {
        String v = text(submitted, var);
        if (v == null) {
            return null;
        }
        return switch (v) {
            case "1", "true" -> true;
            case "0", "false", "" -> false;
            default -> throw new IllegalArgumentException(var + " must be a boolean (0, 1, false, true), not '" + v + "'");
        };
    }

    public static Element field(Element form, String var, String type, String label, String value) {
        Element f = form.addElement("field");
        f.addAttribute("var", var);
        f.addAttribute("type", type);
        if (label != null) {
            f.addAttribute("label", label);
        }
        if (value != null) {
            f.addElement("value").setText(value);
        }
        return f;
    }

    static void choice(Element field, String label, String value) {
        Element o = field.addElement("option");
        o.addAttribute("label", label);
        o.addElement("value").setText(value);
    }

    public static void feature(Element query, String var) {
        query.addElement("feature").addAttribute("var", var);
    }

    // ---- kinds of options -----------------------------------------------------------------------

    /** An on/off option: a {@code boolean} field, and disco features for on and off (XEP-0045 §6.4) if it has them. */
    abstract static class Flag extends RoomOption<Boolean> {
        private final String featureOn;
        private final String featureOff;

        Flag(String var, String label, boolean byDefault, String featureOn, String featureOff) {
            super(var, label, byDefault);
            this.featureOn = featureOn;
            this.featureOff = featureOff;
        }

        @Override
        Boolean read(Map<String, List<String>> submitted, Boolean current, RoomConfig.Limits limits) {
            Boolean v = bool(submitted, var);
            return v == null ? current : v;
        }

        @Override
        void render(Element form, Boolean value, RoomConfig.Limits limits) {
            field(form, var, "boolean", label, value ? "1" : "0");
        }

        @Override
        public void describe(RoomConfig config, Element query, Element roomInfo) {
            String feature = config.get(this) ? featureOn : featureOff;
            if (feature != null) {
                feature(query, feature);
            }
        }
    }

    /** A {@code text-single} option, empty by default, shown in disco#info as the {@code muc#roominfo} field {@code roomInfoVar}. */
    abstract static class Text extends RoomOption<String> {
        private final String roomInfoVar;

        Text(String var, String label, String roomInfoVar) {
            super(var, label, "");
            this.roomInfoVar = roomInfoVar;
        }

        @Override
        String read(Map<String, List<String>> submitted, String current, RoomConfig.Limits limits) {
            String v = text(submitted, var);
            return v == null ? current : v;
        }

        @Override
        void render(Element form, String value, RoomConfig.Limits limits) {
            field(form, var, "text-single", label, value);
        }

        @Override
        public void describe(RoomConfig config, Element query, Element roomInfo) {
            field(roomInfo, roomInfoVar, "text-single", null, config.get(this));
        }
    }

    /** A number between 0 or 1 and a limit of the service, as a {@code text-single} field. */
    public abstract static class Number extends RoomOption<Integer> {
        private final int min;

        public Number(String var, String label, int min) {
            super(var, label, null);
            this.min = min;
        }

        abstract int limit(RoomConfig.Limits limits);

        /** What the submitter may write instead of the limit, or null. */
        String unlimited() {
            return null;
        }

        @Override
        Integer defaultValue(RoomConfig.Limits limits) {
            return limit(limits);
        }

        @Override
        Integer read(Map<String, List<String>> submitted, Integer current, RoomConfig.Limits limits) {
            String v = text(submitted, var);
            if (v == null) {
                return current;
            }
            int max = limit(limits);
            if (v.equals(unlimited())) {
                return max;
            }
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(var + " must be a number, not '" + v + "'");
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException(var + " must be between " + min + " and " + max);
            }
            return n;
        }

        @Override
        void render(Element form, Integer value, RoomConfig.Limits limits) {
            field(form, var, "text-single", label + " (at most " + limit(limits) + ")", Integer.toString(value));
        }

        @Override
        Integer withinLimits(Integer value, RoomConfig.Limits limits) {
            return Math.min(value, limit(limits));
        }
    }

    /** One of an enum's values, as a {@code list-single} field; a constant's form value is its name in lower case. */
    abstract static class Choice<E extends Enum<E>> extends RoomOption<E> {
        private final Class<E> type;

        Choice(String var, String label, Class<E> type, E byDefault) {
            super(var, label, byDefault);
            this.type = type;
        }

        /** The label of one choice in the form: its form value unless the option says better. */
        String labelOf(E value) {
            return formValue(value);
        }

        @Override
        E read(Map<String, List<String>> submitted, E current, RoomConfig.Limits limits) {
            String v = text(submitted, var);
            if (v == null) {
                return current;
            }
            for (E e : type.getEnumConstants()) {
                if (formValue(e).equals(v)) {
                    return e;
                }
            }
            List<String> allowed = Arrays.stream(type.getEnumConstants()).map(Choice::formValue).toList();
            throw new IllegalArgumentException(var + " must be one of " + String.join(", ", allowed) + ", not '" + v + "'");
        }

        @Override
        void render(Element form, E value, RoomConfig.Limits limits) {
            Element f = field(form, var, "list-single", label, formValue(value));
            for (E e : type.getEnumConstants()) {
                choice(f, labelOf(e), formValue(e));
            }
        }

        private static String formValue(Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
    }
}
