package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;

/**
 * The owner's configuration form (XEP-0004 data form, FORM_TYPE {@code muc#roomconfig}): each of
 * the configuration's options ({@link RoomConfig#options()}) renders and reads its own fields. The rendered form is also how a
 * persistent room's configuration is stored ({@link RoomPersistence}).
 */
public final class RoomConfigForm {
    private RoomConfigForm() {
    }

    /** The form an owner fills in, showing the current values. */
    public static Element render(RoomConfig c, RoomConfig.Limits limits) {
        Element x = DocumentHelper.createElement(QName.get("x", Namespaces.DATA_FORMS));
        x.addAttribute("type", "form");
        x.addElement("title").setText("Configuration of the room");
        RoomOption.field(x, "FORM_TYPE", "hidden", null, Namespaces.MUC_ROOMCONFIG);
        for (RoomOption<?> option : c.options()) {
            render(x, c, option, limits);
        }
        return x;
    }

    private static <T> void render(Element x, RoomConfig c, RoomOption<T> option, RoomConfig.Limits limits) {
        option.render(x, c.get(option), limits);
    }

    /**
     * Applies an owner's submitted form to {@code current}: fields not submitted keep their value,
     * then each option that changed settles the others ({@link RoomOption#settle}).
     * Throws IllegalArgumentException naming the bad field.
     */
    public static RoomConfig apply(RoomConfig current, Element submitted, RoomConfig.Limits limits) {
        RoomConfig after = read(current, submitted, limits);
        for (RoomOption<?> option : current.options()) {
            if (option.differs(current, after)) {
                after = option.settle(current, after);
            }
        }
        return after;
    }

    /**
     * The values a form gives, over {@code current}, with nothing settled: a stored form is the
     * configuration as it was. Throws IllegalArgumentException naming the bad field.
     */
    public static RoomConfig read(RoomConfig current, Element submitted, RoomConfig.Limits limits) {
        Map<String, List<String>> values = new HashMap<>();
        for (Element field : submitted.elements("field")) {
            String var = field.attributeValue("var");
            if (var == null) {
                continue;
            }
            List<String> vs = new ArrayList<>();
            for (Element v : field.elements("value")) {
                vs.add(v.getText());
            }
            values.put(var, vs);
        }
        List<String> formType = values.get("FORM_TYPE");
        if (formType != null && !formType.contains(Namespaces.MUC_ROOMCONFIG)) {
            throw new IllegalArgumentException("FORM_TYPE must be " + Namespaces.MUC_ROOMCONFIG);
        }
        RoomConfig c = current;
        for (RoomOption<?> option : current.options()) {
            c = read(c, option, values, limits);
        }
        return c;
    }

    private static <T> RoomConfig read(RoomConfig c, RoomOption<T> option, Map<String, List<String>> values,
            RoomConfig.Limits limits) {
        return c.with(option, option.read(values, c.get(option), limits));
    }
}
