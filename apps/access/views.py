"""Login and logout, both audited (successful and failed attempts)."""

from django.contrib.auth import views as auth_views

from apps.access.services import record_login_attempt, record_logout


class LoginView(auth_views.LoginView):
    template_name = "access/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        record_login_attempt(user=form.get_user(), username=form.get_user().get_username())
        return response

    def form_invalid(self, form):
        record_login_attempt(user=None, username=form.data.get("username", ""))
        return super().form_invalid(form)


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            record_logout(user=request.user)
        return super().post(request, *args, **kwargs)
