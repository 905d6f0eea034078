"""The dashboard: real figures, limited to what the user may see."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.views.generic import TemplateView

from apps.reports.selectors import memory_counts_by_tenant


class DashboardView(LoginRequiredMixin, TemplateView):
    template_name = "reports/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tenant_rows"] = memory_counts_by_tenant(self.request.user)
        return context
