package org.reconmuc.component.it;

import java.util.function.UnaryOperator;
import org.reconmuc.component.config.ServiceConfig;

/** The MUC conversation through Openfire 5.1.1 with the service loaded in-process as the plugin. */
class OpenfirePluginMucIT extends MucConformanceIT {
    @Override
    String serverKind() {
        return "openfire-plugin";
    }

    @Override
    LiveService startService(String runDir, UnaryOperator<ServiceConfig> adjust) throws Exception {
        return OpenfirePlugin.start(runDir, adjust);
    }
}
