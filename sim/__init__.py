"""The simulator: the real daemon on the libraries' mock devices, shown and driven in a
web page. (Coming; see the issues.)
"""
