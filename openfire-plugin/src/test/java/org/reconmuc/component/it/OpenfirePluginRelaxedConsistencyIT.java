package org.reconmuc.component.it;

/** Relaxed consistency through Openfire 5.1.1 with the service loaded in-process as the plugin. */
class OpenfirePluginRelaxedConsistencyIT extends RelaxedConsistencyIT {
    @Override
    String serverKind() {
        return "openfire-plugin";
    }

    @Override
    LiveService startService() throws Exception {
        return OpenfirePlugin.start(runDir(), this::configured);
    }
}
