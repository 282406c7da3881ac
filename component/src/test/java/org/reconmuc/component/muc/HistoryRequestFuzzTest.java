package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.testing.HostileXml;

/**
 * Coverage-guided fuzzing (Jazzer) of a join's XEP-0045 {@code <history/>} (§7.2.15): whatever
 * attributes come, {@link HistoryRequest#parse} returns limits that are none or not negative, or
 * refuses with an IllegalArgumentException (which the join turns into bad-request); nothing else
 * escapes. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../HistoryRequestFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class HistoryRequestFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void parsesOrRefuses(FuzzedDataProvider data) {
        HostileXml x = new HostileXml(data);
        Element history = DocumentHelper.createElement(QName.get(x.name("history"), x.name(Namespaces.MUC, "")));
        for (int i = x.count(6); i > 0; i--) {
            history.addAttribute(x.name("maxchars", "maxstanzas", "seconds", "since"), x.value());
        }
        x.junk(history);
        HistoryRequest parsed;
        try {
            parsed = HistoryRequest.parse(HostileXml.asReceived(history));
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        for (Integer limit : new Integer[] {parsed.maxChars(), parsed.maxStanzas(), parsed.seconds()}) {
            if (limit != null) {
                assertThat(limit).isNotNegative();
            }
        }
    }
}
