/// @file
/// @brief The handful of type traits and utilities schedcore needs, written without
/// `<type_traits>` or `<utility>` (neither exists for riscv64-unknown-elf or in a kernel build).
///
/// Only what the library uses is here; each trait follows the std meaning exactly, so a reader
/// can substitute the std name in their head.
#ifndef SCHEDCORE_CORE_TRAITS_HPP
#define SCHEDCORE_CORE_TRAITS_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// A compile-time constant as a type (`std::integral_constant`).
template <class T, T V>
struct integral_constant {
  static constexpr T value = V;  ///< the constant
  using value_type = T;          ///< its type
  /// @return the constant
  constexpr operator T() const noexcept { return V; }
};
using true_type = integral_constant<bool, true>;    ///< `std::true_type`
using false_type = integral_constant<bool, false>;  ///< `std::false_type`

/// `std::is_same`
template <class A, class B>
struct is_same : false_type {};
/// @cond INTERNAL
template <class A>
struct is_same<A, A> : true_type {};
/// @endcond
/// `std::is_same_v`
template <class A, class B>
inline constexpr bool is_same_v = is_same<A, B>::value;

/// `std::enable_if`
template <bool B, class T = void>
struct enable_if {};
/// @cond INTERNAL
template <class T>
struct enable_if<true, T> {
  using type = T;
};
/// @endcond
/// `std::enable_if_t`
template <bool B, class T = void>
using enable_if_t = typename enable_if<B, T>::type;

/// `std::conditional`
template <bool B, class T, class F>
struct conditional {
  using type = T;  ///< T when B, else F
};
/// @cond INTERNAL
template <class T, class F>
struct conditional<false, T, F> {
  using type = F;
};
/// @endcond
/// `std::conditional_t`
template <bool B, class T, class F>
using conditional_t = typename conditional<B, T, F>::type;

/// `std::remove_reference`
template <class T>
struct remove_reference {
  using type = T;  ///< T without reference
};
/// @cond INTERNAL
template <class T>
struct remove_reference<T&> {
  using type = T;
};
template <class T>
struct remove_reference<T&&> {
  using type = T;
};
/// @endcond
/// `std::remove_reference_t`
template <class T>
using remove_reference_t = typename remove_reference<T>::type;

/// `std::remove_cv`
template <class T>
struct remove_cv {
  using type = T;  ///< T without top-level const/volatile
};
/// @cond INTERNAL
template <class T>
struct remove_cv<const T> {
  using type = T;
};
template <class T>
struct remove_cv<volatile T> {
  using type = T;
};
template <class T>
struct remove_cv<const volatile T> {
  using type = T;
};
/// @endcond
/// `std::remove_cvref_t`
template <class T>
using remove_cvref_t = typename remove_cv<remove_reference_t<T>>::type;

/// `std::void_t`, for the detection idiom used by policy_traits.
template <class...>
using void_t = void;

/// `std::declval` (unevaluated contexts only).
template <class T>
T&& declval() noexcept;

/// `std::is_integral` for the types schedcore uses (bool, char and the fixed-width integers).
template <class T>
struct is_integral
    : integral_constant<bool, is_same_v<remove_cvref_t<T>, bool> || is_same_v<remove_cvref_t<T>, char> ||
                                  is_same_v<remove_cvref_t<T>, signed char> ||
                                  is_same_v<remove_cvref_t<T>, unsigned char> ||
                                  is_same_v<remove_cvref_t<T>, short> ||
                                  is_same_v<remove_cvref_t<T>, unsigned short> ||
                                  is_same_v<remove_cvref_t<T>, int> ||
                                  is_same_v<remove_cvref_t<T>, unsigned> ||
                                  is_same_v<remove_cvref_t<T>, long> ||
                                  is_same_v<remove_cvref_t<T>, unsigned long> ||
                                  is_same_v<remove_cvref_t<T>, long long> ||
                                  is_same_v<remove_cvref_t<T>, unsigned long long>> {};
/// `std::is_integral_v`
template <class T>
inline constexpr bool is_integral_v = is_integral<T>::value;

/// `std::is_signed_v` for integers.
template <class T>
inline constexpr bool is_signed_v = is_integral_v<T> && (static_cast<T>(-1) < static_cast<T>(0));

/// `std::is_base_of_v` (compiler builtin).
template <class Base, class Derived>
inline constexpr bool is_base_of_v = __is_base_of(Base, Derived);

/// `std::is_trivially_destructible_v` (compiler builtin).
template <class T>
inline constexpr bool is_trivially_destructible_v = __has_trivial_destructor(T);

/// The range of an integer type (`std::numeric_limits<T>::min/max` for integers only). The
/// names are parenthesised, `(max)()`, so that a `min(a, b)` / `max(a, b)` macro cannot expand
/// them; call them as `(int_limits<T>::max)()` where such a macro may exist.
template <class T>
struct int_limits {
  static_assert(is_integral_v<T>, "int_limits is for integer types");
  /// the largest value of T (for a signed T, all ones shifted right once, in unsigned
  /// arithmetic: no shift into the sign bit)
  static constexpr T(max)() noexcept {
    return is_signed_v<T> ? static_cast<T>(~0ull >> (64 - sizeof(T) * 8 + 1)) : static_cast<T>(~static_cast<T>(0));
  }
  /// the smallest value of T
  static constexpr T(min)() noexcept {
    return is_signed_v<T> ? static_cast<T>(-(max)() - 1) : static_cast<T>(0);
  }
};

/// `std::move`
template <class T>
constexpr remove_reference_t<T>&& move(T&& v) noexcept {
  return static_cast<remove_reference_t<T>&&>(v);
}

/// `std::forward`
template <class T>
constexpr T&& forward(remove_reference_t<T>& v) noexcept {
  return static_cast<T&&>(v);
}

/// `std::swap` for the trivially movable types schedcore swaps (pointers, integers). Named
/// `(swap)` so that a `swap(a, b)` macro (the Linux kernel's) cannot expand it.
template <class T>
constexpr void(swap)(T& a, T& b) noexcept {
  T tmp = static_cast<T&&>(a);
  a = static_cast<T&&>(b);
  b = static_cast<T&&>(tmp);
}

/// The smaller of two values (`std::min`); `a` when equal.
template <class T>
constexpr const T& min_of(const T& a, const T& b) noexcept {
  return b < a ? b : a;
}

/// The larger of two values (`std::max`); `a` when equal.
template <class T>
constexpr const T& max_of(const T& a, const T& b) noexcept {
  return a < b ? b : a;
}

/// `v` limited to [lo, hi]. @pre !(hi < lo)
template <class T>
constexpr const T& clamp_to(const T& v, const T& lo, const T& hi) noexcept {
  return v < lo ? lo : (hi < v ? hi : v);
}

namespace detail {

/// The offset of a data member, from the pointer-to-member's object representation (the
/// Itanium C++ ABI stores a data-member pointer as its byte offset; GCC and Clang use it on
/// every target schedcore supports). What `offsetof` gives for a standard-layout class, for
/// any class: a task that derives from several entities is not standard-layout, and `offsetof`
/// on it is only conditionally supported (-Winvalid-offsetof).
template <class C, class M>
SCHEDCORE_ALWAYS_INLINE __PTRDIFF_TYPE__ member_offset(M C::*pm) noexcept {
  static_assert(sizeof(pm) == sizeof(__PTRDIFF_TYPE__), "expects the Itanium C++ ABI");
  return __builtin_bit_cast(__PTRDIFF_TYPE__, pm);
}

/// Splits a pointer to data member into its class and member types.
template <class P>
struct member_pointer_traits;
/// @cond INTERNAL
template <class C, class M>
struct member_pointer_traits<M C::*> {
  using class_type = C;
  using member_type = M;
};
/// @endcond

}  // namespace detail

}  // namespace schedcore

#endif
