"""gpudash: GPU metering and billing as code for OpenShift + Red Hat ACM."""
